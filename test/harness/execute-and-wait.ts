/**
 * ExecuteIntent for a deposit the test made, then WaitIntentReceipt (each call with the states the last
 * answer reported) until the receipt is done; answers the intent's final status.
 */
import type { TrailsApi, TransactionStatus } from '@0xtrails/api';

export async function executeAndWait(api: TrailsApi, intentId: string, depositTransactionHash: string) {
  await api.executeIntent({ intentId, depositTransactionHash });
  let last: TransactionStatus[] | undefined;
  for (;;) {
    const waited = await api.waitIntentReceipt({ intentId, ...(last && { lastReceiptStates: last }) });
    if (waited.done) return waited.intentReceipt.status;
    last = waited.receiptStates;
  }
}
