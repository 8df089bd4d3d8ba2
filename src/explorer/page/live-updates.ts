/**
 * Where the intent page's live updates come from: WaitIntentReceipt long polls (the server holds each call
 * until the receipt's states differ from the ones named, up to ~25 s). The page only calls `watchReceipt`;
 * another source (an event stream) replaces this file alone.
 */
import type { Api } from './api.ts';
import type { IntentReceipt } from './types.ts';

/** After a failed poll (server restarting, network gone), wait this long (ms) before the next. */
const RETRY_DELAY_MS = 2_000;

export interface ReceiptUpdate {
  receipt: IntentReceipt;
  /** Transaction statuses in receipt order (deposit, origin, destination, refund). */
  states: string[];
  /** The intent is in a final status: no more updates will come. */
  done: boolean;
}

/**
 * Calls `onUpdate` for every change of the receipt's states after `seen` (the states the page shows now)
 * until the intent is done or `signal` aborts.
 */
export function watchReceipt(options: {
  api: Api;
  intentId: string;
  seen: string[];
  onUpdate: (update: ReceiptUpdate) => void;
  signal: AbortSignal;
  onTrouble?: (error: unknown) => void;
}): void {
  const { api, intentId, onUpdate, signal, onTrouble } = options;
  const poll = async (last: string[] | undefined): Promise<void> => {
    while (!signal.aborted) {
      try {
        const answer = await api.call<{
          intentReceipt: IntentReceipt;
          receiptStates: string[];
          done: boolean;
        }>('WaitIntentReceipt', { intentId, ...(last && { lastReceiptStates: last }) }, signal);
        const changed = !last || answer.receiptStates.join() !== last.join();
        last = answer.receiptStates;
        if (changed || answer.done)
          onUpdate({ receipt: answer.intentReceipt, states: answer.receiptStates, done: answer.done });
        if (answer.done) return;
      } catch (error) {
        if (signal.aborted) return;
        onTrouble?.(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  };
  void poll(options.seen);
}
