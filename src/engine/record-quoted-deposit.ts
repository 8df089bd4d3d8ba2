/**
 * A deposit arrived at the address of an intent that was quoted and never committed. The engine does not
 * execute it (nobody agreed to run it), and the owner must not have to act: the deposit row says what
 * arrived and what will happen when, and the `origin-refund` step is journaled, which returns everything
 * the address holds to the owner once the origin deadline has passed (before it, only the owner may).
 * CommitIntent while the quote is still valid runs the intent instead: the deposit watcher then finds it.
 *
 * The journaled step is also what keeps such an intent out of the deletion of expired quotes.
 */
import type { Hex } from 'viem';
import type { IntentRecord } from '../store/types.ts';
import type { EngineContext } from './context.ts';
import { loadPlan } from './load-plan.ts';
import { writeRow } from './receipts.ts';
import { describeAmounts, heldBalances } from './refunds/held-balances.ts';
import { originRefundStep } from './refunds/origin-refund.ts';

/** The transfer that paid the address, when a log showed it (a native deposit shows none). */
export interface SeenTransfer {
  hash: Hex;
  from: string;
  minedAt: Date;
}

/** True when the deposit was recorded now; false when it already was, or the address holds nothing. */
export async function recordQuotedDeposit(
  ctx: EngineContext,
  intent: IntentRecord,
  seen?: SeenTransfer,
): Promise<boolean> {
  if (!intent.planJson) return false;
  const steps = await ctx.store.steps.list(intent.intentId);
  if (steps.some((s) => s.step === originRefundStep.name)) return false;
  const plan = loadPlan(intent);
  const o = plan.origin.intent;
  const chain = ctx.chain(o.chainId);
  const held = await heldBalances(chain, plan.origin.address, o.depositToken);
  if (held.length === 0) return false;
  const deadline = new Date(Number(o.deadline) * 1000).toISOString();
  const commitWindow =
    intent.quoteExpiresAt.getTime() > Date.now()
      ? `CommitIntent before the quote expires at ${intent.quoteExpiresAt.toISOString()} executes it; otherwise everything`
      : 'Everything';
  await writeRow(ctx.store, intent.intentId, 'deposit', {
    chainId: Number(o.chainId),
    status: 'PENDING',
    toAddress: plan.origin.address,
    tokenAddress: o.depositToken,
    tokenAmount: o.depositAmount,
    ...(seen && { txnHash: seen.hash, fromAddress: seen.from, minedAt: seen.minedAt }),
    statusReason:
      `${describeAmounts(chain.config, held)} arrived, but the intent was never committed, so it is not executed. ` +
      `${commitWindow} the address holds is returned to the owner ${o.owner} on ${chain.config.name} after ` +
      `the origin deadline ${deadline} (chain time), with nothing to do.`,
  });
  await ctx.enqueue(
    intent.intentId,
    originRefundStep.name,
    originRefundStep.firstLookAt?.(ctx, { intent, plan }),
  );
  ctx.log.info('deposit to a quote never committed: returned after the origin deadline', {
    intentId: intent.intentId,
    hash: seen?.hash,
    deadline,
  });
  return true;
}
