/**
 * An intent's receipt states as a held WaitIntentReceipt compares them: the statuses of its stored
 * transaction rows in the order deposit, origin, destination (always three; UNKNOWN where a transaction is
 * not known yet), then refund when there is one, spelled as the store spells them. Read straight off the
 * rows, without building the receipt: most wake-ups hold, and the receipt would parse the stored intent
 * for nothing.
 */
import type { IntentReceiptRecord, TransactionStatus } from '../../store/index.ts';

export function storedReceiptStates({ transactions }: IntentReceiptRecord): TransactionStatus[] {
  const states: TransactionStatus[] = [
    transactions.deposit?.status ?? 'UNKNOWN',
    transactions.origin?.status ?? 'UNKNOWN',
    transactions.destination?.status ?? 'UNKNOWN',
  ];
  if (transactions.refund) states.push(transactions.refund.status);
  return states;
}

export function sameStates(current: readonly string[], last: readonly string[]): boolean {
  return current.length === last.length && current.every((s, i) => s === last[i]);
}
