/**
 * One intent through the service the way a wallet runs it, after QuoteIntent: CommitIntent, the deposit
 * exactly as the quote describes it, ExecuteIntent with its hash, then WaitIntentReceipt (long polls
 * naming the states already seen) until done. Throws unless the intent SUCCEEDED.
 */
import type { Intent, TrailsApi, TransactionStatus } from '@0xtrails/api';
import type { Account } from 'viem';
import { type BenchChain, sendAndWait } from './e2e-chain.ts';
import type { IntentTiming, RawDeposit } from './e2e-timing.ts';

/** An intent not done this long (ms) after its deposit fails the run instead of hanging it. */
const INTENT_TIMEOUT_MS = 120_000;

export async function runServiceIntent(
  api: TrailsApi,
  origin: BenchChain,
  job: { user: Account; intent: Intent },
  describe?: (intentId: string) => Promise<string>,
): Promise<IntentTiming> {
  const { intentId } = await api.commitIntent({ intent: job.intent });
  const raw = job.intent.depositTransaction as unknown as RawDeposit;
  const depositSentAt = performance.now();
  const receipt = await sendAndWait(origin, job.user, {
    to: raw.to,
    data: raw.data,
    value: BigInt(raw.value ?? 0),
  });
  const depositMinedAt = performance.now();
  await api.executeIntent({ intentId, depositTransactionHash: receipt.transactionHash });
  let last: TransactionStatus[] | undefined;
  for (;;) {
    const answer = await api.waitIntentReceipt({ intentId, lastReceiptStates: last });
    last = answer.receiptStates;
    if (!answer.done) {
      if (performance.now() - depositSentAt > INTENT_TIMEOUT_MS) {
        const stored = describe ? `; stored: ${await describe(intentId).catch((e: Error) => e.message)}` : '';
        throw new Error(
          `intent ${intentId} not done after ${INTENT_TIMEOUT_MS} ms: ${last.join(', ')}${stored}`,
        );
      }
      continue;
    }
    if (answer.intentReceipt.status !== 'SUCCEEDED')
      throw new Error(`intent ${intentId} ended ${answer.intentReceipt.status}`);
    const doneAt = performance.now();
    const destinationHash = answer.intentReceipt.destinationTransaction?.txnHash as `0x${string}` | undefined;
    if (!destinationHash) throw new Error(`intent ${intentId} SUCCEEDED without a destination transaction`);
    return {
      depositSentAt,
      depositMinedAt,
      doneAt,
      depositBlock: receipt.blockNumber,
      destinationHash,
    };
  }
}
