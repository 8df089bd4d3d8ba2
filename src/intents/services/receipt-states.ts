/**
 * receiptStates: the transaction statuses of a receipt in the order deposit, origin, destination (always
 * three; UNKNOWN where a transaction is not known yet), then refund when there is one. On /rpc/Trails the
 * store's RELAYED is spelled SENT (client 0.9.4 has no RELAYED); comparisons accept either spelling.
 */
import type { Dialect } from '../../api/dialect.ts';
import type { IntentReceipt } from '../../api/schemas/receipt.ts';
import type { IntentReceiptRecord } from '../../store/index.ts';

type WireStatus = IntentReceipt['depositTransaction']['status'];

export function wireStatus(status: WireStatus, dialect: Dialect): WireStatus {
  return dialect === 'Trails' && status === 'RELAYED' ? 'SENT' : status;
}

export function receiptStates(receipt: IntentReceipt, dialect: Dialect): WireStatus[] {
  const states: WireStatus[] = [
    receipt.depositTransaction.status,
    receipt.originTransaction.status,
    receipt.destinationTransaction?.status ?? 'UNKNOWN',
  ];
  if (receipt.refundTransaction) states.push(receipt.refundTransaction.status);
  return states.map((s) => wireStatus(s, dialect));
}

/**
 * The same states read straight off the stored rows, without building the receipt: what a held
 * WaitIntentReceipt call compares at each wake-up (most wake-ups hold, and the receipt would parse the
 * stored intent for nothing). Equal to `receiptStates(receiptToWire(record), dialect)`.
 */
export function storedReceiptStates({ transactions }: IntentReceiptRecord, dialect: Dialect): WireStatus[] {
  const states: WireStatus[] = [
    transactions.deposit?.status ?? 'UNKNOWN',
    transactions.origin?.status ?? 'UNKNOWN',
    transactions.destination?.status ?? 'UNKNOWN',
  ];
  if (transactions.refund) states.push(transactions.refund.status);
  return states.map((s) => wireStatus(s, dialect));
}

/** The receipt with every transaction status in the dialect's spelling. */
export function receiptInDialect(receipt: IntentReceipt, dialect: Dialect): IntentReceipt {
  if (dialect !== 'Trails') return receipt;
  const out = { ...receipt };
  for (const key of [
    'depositTransaction',
    'originTransaction',
    'destinationTransaction',
    'refundTransaction',
  ] as const) {
    const tx = receipt[key];
    if (tx) out[key] = { ...tx, status: wireStatus(tx.status, dialect) };
  }
  return out;
}

export function sameStates(current: readonly string[], last: readonly string[]): boolean {
  const canonical = (s: string) => (s === 'SENT' ? 'RELAYED' : s);
  return current.length === last.length && current.every((s, i) => canonical(s) === canonical(last[i]!));
}
