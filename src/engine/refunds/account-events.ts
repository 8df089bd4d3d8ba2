/**
 * What an intent account's refund did (its Refunded / RefundSkipped events, and the owner's signed recovery's
 * Recovered: what it sent the owner's recipient), and past refunds found in logs.
 */
import {
  type Address,
  getAbiItem,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { intentAccountAbi } from '../../contracts/abis.generated.ts';
import { LOG_LOOKBACK_BLOCKS } from '../constants.ts';
import type { HeldBalance } from './held-balances.ts';

export interface RefundOutcome {
  refunded: HeldBalance[];
  /** Tokens the account could not send (a failing token or recipient): still there, a later round retries. */
  skipped: Address[];
}

export function refundOutcome(receipt: TransactionReceipt, account: Address): RefundOutcome {
  const mine = receipt.logs.filter((l) => isAddressEqual(l.address, account));
  const refunded = parseEventLogs({ abi: intentAccountAbi, eventName: 'Refunded', logs: mine }).map((l) => ({
    token: l.args.token,
    amount: l.args.amount,
  }));
  for (const l of parseEventLogs({ abi: intentAccountAbi, eventName: 'Recovered', logs: mine })) {
    refunded.push({ token: l.args.token, amount: l.args.amount });
  }
  const skipped = parseEventLogs({ abi: intentAccountAbi, eventName: 'RefundSkipped', logs: mine }).map(
    (l) => l.args.token,
  );
  return { refunded, skipped };
}

/** The newest transaction in which `account` emitted `event` (a refund or cancellation sent by someone else). */
export async function findAccountEvent(
  client: PublicClient,
  account: Address,
  event: 'Refunded' | 'Cancelled',
): Promise<Hex | undefined> {
  const head = await withChainErrors(() => client.getBlockNumber());
  const range = { fromBlock: head > LOG_LOOKBACK_BLOCKS ? head - LOG_LOOKBACK_BLOCKS : 0n, toBlock: head };
  const hashes = await withChainErrors(async () =>
    event === 'Refunded'
      ? (
          await client.getLogs({
            address: account,
            event: getAbiItem({ abi: intentAccountAbi, name: 'Refunded' }),
            ...range,
          })
        ).map((l) => l.transactionHash)
      : (
          await client.getLogs({
            address: account,
            event: getAbiItem({ abi: intentAccountAbi, name: 'Cancelled' }),
            ...range,
          })
        ).map((l) => l.transactionHash),
  );
  return hashes.at(-1) ?? undefined;
}
