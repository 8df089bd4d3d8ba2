/**
 * receiptStates on the wire: the transaction statuses of a receipt in the order deposit, origin,
 * destination (always three; UNKNOWN where a transaction is not known yet), then refund when there is one,
 * in the dialect's spelling (the receipt's own: on /rpc/Trails the store's RELAYED is SENT, client 0.9.4
 * has no RELAYED). A client sends them back as `lastReceiptStates` in either spelling.
 */
import type { IntentReceipt } from '../../schemas/receipt.ts';

type WireStatus = IntentReceipt['depositTransaction']['status'];

export function receiptStates(receipt: IntentReceipt): WireStatus[] {
  const states: WireStatus[] = [
    receipt.depositTransaction.status,
    receipt.originTransaction.status,
    receipt.destinationTransaction?.status ?? 'UNKNOWN',
  ];
  if (receipt.refundTransaction) states.push(receipt.refundTransaction.status);
  return states;
}

/** The states as the store spells them (SENT is RELAYED); the same array when nothing is spelled otherwise. */
export function inStoreSpelling(states: readonly string[] | undefined): readonly string[] | undefined {
  if (!states?.includes('SENT')) return states;
  return states.map((s) => (s === 'SENT' ? 'RELAYED' : s));
}
