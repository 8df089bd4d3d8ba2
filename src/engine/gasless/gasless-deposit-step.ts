/**
 * The deposit step for a gasless deposit: nothing is in the origin account yet (the origin execution
 * pulls it), so "deposited" means the owner still holds the amount. Short: wait, like an underpaid
 * transfer, until the signed or the origin deadline.
 */
import { balanceAt, chainNow } from '../chain-reads.ts';
import { DEPOSIT_RECHECK_MS } from '../constants.ts';
import type { EngineContext, StepInput, StepResult } from '../context.ts';
import { DeadlinePassedError } from '../errors.ts';
import { type DepositIntentEntry, readDepositIntentEntry } from './deposit-intent-entry.ts';

/** undefined when the intent has no gasless entry (the plain-transfer path decides). */
export async function gaslessDepositStep(
  ctx: EngineContext,
  { intent, plan }: StepInput,
): Promise<StepResult | undefined> {
  const entry = await readDepositIntentEntry(ctx.store, intent.intentId);
  if (!entry) return undefined;
  const o = plan.origin.intent;
  const { client } = ctx.chain(o.chainId);
  const held = await balanceAt(client, o.depositToken, o.owner);
  if (held >= o.depositAmount) return { kind: 'done', next: ['origin'] };
  await checkGaslessDeadline(entry.deadline, o.deadline, await chainNow(client));
  return {
    kind: 'wait',
    afterMs: DEPOSIT_RECHECK_MS,
    reason: `gasless deposit: the owner holds ${held} of ${o.depositAmount} required`,
  };
}

/** The relay must happen before both the owner's signed deadline and the origin intent's deadline. */
export async function checkGaslessDeadline(signed: number, origin: bigint, now: bigint): Promise<void> {
  const deadline = BigInt(signed) < origin ? BigInt(signed) : origin;
  if (now >= deadline) {
    throw new DeadlinePassedError('the gasless deposit signature expired before it could be relayed', {
      details: { signedDeadline: signed, originDeadline: origin, now },
    });
  }
}

/**
 * Before a fresh origin send: a gasless deposit past its signed deadline is not relayed. `entry`: the
 * intent's gasless entry as the step read it (readDepositIntentEntry).
 */
export async function checkGaslessSendable(
  input: StepInput,
  now: bigint,
  entry: DepositIntentEntry | undefined,
): Promise<void> {
  if (entry) await checkGaslessDeadline(entry.deadline, input.plan.origin.intent.deadline, now);
}
