/**
 * What an intent account's refund did (its Refunded / RefundSkipped events, and the owner's signed recovery's
 * Recovered: what it sent the owner's recipient), and past refunds found in logs. The engine's refund records
 * and AbortIntent read a transaction's returns here, so a recovery counts as returned in both.
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

/** A token the account sent back, and to whom (the refund recipient, or the recovery's recipient). */
export interface ReturnedBalance extends HeldBalance {
  to: Address;
}

export interface RefundOutcome {
  refunded: ReturnedBalance[];
  /** Tokens the account could not send (a failing token or recipient): still there, a later round retries. */
  skipped: Address[];
}

export function refundOutcome(receipt: TransactionReceipt, account: Address): RefundOutcome {
  const mine = receipt.logs.filter((l) => isAddressEqual(l.address, account));
  const refunded: ReturnedBalance[] = parseEventLogs({
    abi: intentAccountAbi,
    eventName: 'Refunded',
    logs: mine,
  }).map((l) => ({ token: l.args.token, amount: l.args.amount, to: l.args.to }));
  // A recovery's recipient gets the amount net of the relayer's fee, which the event carries apart.
  for (const l of parseEventLogs({ abi: intentAccountAbi, eventName: 'Recovered', logs: mine })) {
    refunded.push({ token: l.args.token, amount: l.args.amount, to: l.args.recipient });
  }
  const skipped = parseEventLogs({ abi: intentAccountAbi, eventName: 'RefundSkipped', logs: mine }).map(
    (l) => l.args.token,
  );
  return { refunded, skipped };
}

/**
 * What a refund row records of a transaction's returns: the intent's deposit token (summed, should the
 * transaction return it more than once), else the first token returned; undefined when nothing was.
 */
export function mainReturn(outcome: RefundOutcome, depositToken: Address): ReturnedBalance | undefined {
  const deposit = outcome.refunded.filter((r) => isAddressEqual(r.token, depositToken));
  if (deposit.length === 0) return outcome.refunded[0];
  return { ...deposit[0]!, amount: deposit.reduce((sum, r) => sum + r.amount, 0n) };
}

/** The newest transaction in which `account` emitted `event` (a refund or cancellation sent by someone else). */
export async function findAccountEvent(
  client: PublicClient,
  account: Address,
  event: 'Refunded' | 'Cancelled',
): Promise<Hex | undefined> {
  // A fresh head: the caller has just read the account's state at latest, and a head cached from before the
  // event's block would search a range without it (the step then recorded a cancelled account as FAILED).
  const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
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
