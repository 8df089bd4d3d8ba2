/** Refund waits: the engine's defaults, shortened by tests through the engine options. */
import type { EngineContext, RefundTiming, StepResult } from '../context.ts';
import { LATE_DEPOSIT_RECHECK_MS, REFUND_RECHECK_MAX_MS, REFUND_RECHECK_MIN_MS } from './constants.ts';

export function refundTiming(ctx: EngineContext): RefundTiming {
  return {
    recheckMaxMs: ctx.refundTiming?.recheckMaxMs ?? REFUND_RECHECK_MAX_MS,
    lateDepositRecheckMs: ctx.refundTiming?.lateDepositRecheckMs ?? LATE_DEPOSIT_RECHECK_MS,
  };
}

/** Wait until chain time `at` (seconds), judged from the chain's `now`; re-read at least every recheckMaxMs. */
export function waitForChainTime(ctx: EngineContext, now: bigint, at: bigint, reason: string): StepResult {
  const { recheckMaxMs } = refundTiming(ctx);
  const remainingMs = Number(at - now) * 1000;
  const afterMs = Math.min(
    Math.max(remainingMs, Math.min(REFUND_RECHECK_MIN_MS, recheckMaxMs)),
    recheckMaxMs,
  );
  return { kind: 'wait', afterMs, reason };
}

/**
 * A refund step's first look: at its deadline (`deadline`, chain seconds, judged by our clock), since nothing
 * is refundable before it, but no later than recheckMaxMs from now, since chain time can run ahead of ours.
 * A deadline already past by our clock: at once.
 */
export function firstLookAtDeadline(ctx: EngineContext, deadline: bigint): Date {
  const { recheckMaxMs } = refundTiming(ctx);
  return new Date(Math.min(Number(deadline) * 1000, Date.now() + recheckMaxMs));
}
