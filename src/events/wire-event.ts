/**
 * An event as it goes out, on the stream and in a webhook's body: `{ id, type, createdAt, data }`. `id` is
 * the project's event number; `data` holds the intent's status and receipt states after the change, as
 * WaitIntentReceipt reports them (`receiptStates`: deposit, origin, destination, then refund when there is
 * one), and for a `transaction.*` event the transaction that changed.
 */
import type { IntentEventRecord, IntentStatus, TransactionKind, TransactionStatus } from '../store/index.ts';
import { eventTypeOf } from './event-types.ts';

export interface WireEventData {
  intentId: string;
  ownerAddress: string;
  status: IntentStatus;
  receiptStates: TransactionStatus[];
  transaction?: {
    kind: TransactionKind;
    status: TransactionStatus;
    chainId: number | null;
    txnHash: string | null;
  };
}

export interface WireEvent {
  id: number;
  type: string;
  /** RFC 3339, UTC. */
  createdAt: string;
  data: WireEventData;
}

export function toWireEvent(event: IntentEventRecord): WireEvent {
  const { deposit, origin, destination, refund } = event.receiptStates;
  const receiptStates =
    refund === null ? [deposit, origin, destination] : [deposit, origin, destination, refund];
  const data: WireEventData = {
    intentId: event.intentId,
    ownerAddress: event.ownerAddress,
    status: event.status,
    receiptStates,
  };
  if (event.transactionKind !== null) {
    data.transaction = {
      kind: event.transactionKind,
      status: event.receiptStates[event.transactionKind] ?? 'UNKNOWN',
      chainId: event.chainId,
      txnHash: event.txnHash,
    };
  }
  return { id: event.seq, type: eventTypeOf(event), createdAt: event.createdAt.toISOString(), data };
}
