/**
 * RetryIntent's part in the engine: a FAILED intent whose replacement deposit was checked (it paid the origin
 * address, and the address now holds the whole deposit) runs again from its deposit step. The status moves
 * back to EXECUTING with the new hash (the store's one backward move, guarded: a second retry finds it no
 * longer FAILED and changes nothing); the deposit row, final as FAILED, becomes PENDING with the hash; the
 * deposit step is journaled again. The origin-refund step journaled when execution first started still
 * stands: it returns the deposit after the deadline if the origin never runs.
 */
import type { Hex } from 'viem';
import type { EngineContext } from './context.ts';
import { IntentNotFoundError } from './errors.ts';

/** False when the intent was not FAILED (it changed meanwhile): nothing was written. */
export async function retryExecution(
  ctx: EngineContext,
  input: { intentId: string; depositTransactionHash: Hex },
): Promise<boolean> {
  const { store } = ctx;
  const intent = await store.intents.getForEngine(input.intentId);
  if (!intent) {
    throw new IntentNotFoundError(`intent ${input.intentId} not found`, {
      details: { intentId: input.intentId },
    });
  }
  const reopened = await store.intents.reopenFailed({
    intentId: input.intentId,
    depositTransactionHash: input.depositTransactionHash,
  });
  if (!reopened) return false;
  await store.transactions.advance({
    intentId: input.intentId,
    kind: 'deposit',
    chainId: intent.originChainId,
    status: 'PENDING',
    statusReason: null,
    txnHash: input.depositTransactionHash,
    from: ['FAILED'],
  });
  await store.steps.requeue({ intentId: input.intentId, step: 'deposit' });
  await ctx.enqueue(input.intentId, 'deposit');
  return true;
}
