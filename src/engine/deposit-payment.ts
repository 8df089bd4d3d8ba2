/**
 * Whether a named transaction paid an intent's origin address. A deposit hash (given to ExecuteIntent, or
 * remembered from it) is believed only when its mined transaction moved something of the deposit token to
 * the address: a `Transfer` log of that token to it, or, for the native currency, the transaction's own
 * value sent to it. Any amount counts (a short deposit still pays the address and takes the underpaid
 * path); a transaction that pays the address nothing of the token is some other payment (another intent's
 * deposit, another project's), never this intent's deposit.
 */
import {
  type Address,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { withChainErrors } from '../chains/map-chain-error.ts';
import { minedAt } from '../chains/mined-at.ts';

export type DepositPayment =
  /** No receipt yet: not mined (or not known to this node). Nothing about it can be believed yet. */
  | { state: 'unmined' }
  | { state: 'paid'; from: Address; blockNumber: bigint; minedAt: Date; amount: bigint }
  /** Mined, and not a payment of the deposit token to the address; `reason` says what it is instead. */
  | { state: 'foreign'; reason: string };

export interface DepositTarget {
  /** The origin intent address. */
  to: Address;
  /** The deposit token; the zero address for the native currency. */
  token: Address;
}

export async function readDepositPayment(
  client: PublicClient,
  hash: Hex,
  target: DepositTarget,
): Promise<DepositPayment> {
  const receipt = await withChainErrors(() =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if ((error as { name?: string }).name === 'TransactionReceiptNotFoundError') return undefined;
      throw error;
    }),
  );
  if (!receipt) return { state: 'unmined' };
  if (receipt.status !== 'success') {
    return { state: 'foreign', reason: `transaction ${hash} reverted: it moved nothing` };
  }
  const amount = isAddressEqual(target.token, zeroAddress)
    ? await nativeSent(client, hash, target.to)
    : tokenTransferred(receipt, target);
  if (amount === 0n) {
    const what = isAddressEqual(target.token, zeroAddress) ? 'the native currency' : `token ${target.token}`;
    return {
      state: 'foreign',
      reason: `transaction ${hash} pays the intent address ${target.to} nothing of ${what}: it is not this intent's deposit`,
    };
  }
  return {
    state: 'paid',
    from: receipt.from,
    blockNumber: receipt.blockNumber,
    minedAt: await minedAt(client, receipt),
    amount,
  };
}

/** The sum of the token's Transfer logs to the address in this receipt. */
function tokenTransferred(receipt: TransactionReceipt, target: DepositTarget): bigint {
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
  return transfers
    .filter((log) => isAddressEqual(log.address, target.token) && isAddressEqual(log.args.to, target.to))
    .reduce((sum, log) => sum + log.args.value, 0n);
}

/**
 * The value the transaction itself sends to the address. Native currency moved by a contract inside the
 * transaction (a smart wallet's internal call) leaves no trace a plain node shows, so it is not counted:
 * such a deposit still counts when the deposit watcher or step finds the balance, without its hash.
 */
async function nativeSent(client: PublicClient, hash: Hex, to: Address): Promise<bigint> {
  const tx = await withChainErrors(() => client.getTransaction({ hash }));
  return tx.to && isAddressEqual(tx.to, to) ? tx.value : 0n;
}
