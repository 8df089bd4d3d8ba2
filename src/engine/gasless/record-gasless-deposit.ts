/**
 * After the origin execution: a gasless deposit happened inside it, so the deposit row takes the origin
 * transaction's hash and time. If the origin never ran, the tokens never left the owner.
 */
import type { Hex } from 'viem';
import type { EngineContext, StepInput } from '../context.ts';
import { writeRow } from '../receipts.ts';
import { type DepositIntentEntry, readDepositIntentEntry } from './deposit-intent-entry.ts';

export async function recordGaslessDeposit(
  ctx: EngineContext,
  { intent, plan }: StepInput,
  sent: { hash: Hex; minedAt: Date },
  /** The intent's gasless entry as the step read it (readDepositIntentEntry). */
  entry: DepositIntentEntry | undefined,
): Promise<void> {
  if (!entry) return;
  const o = plan.origin.intent;
  await writeRow(ctx.store, intent.intentId, 'deposit', {
    chainId: Number(o.chainId),
    status: 'SUCCEEDED',
    fromAddress: o.owner,
    toAddress: plan.origin.address,
    tokenAddress: o.depositToken,
    tokenAmount: o.depositAmount,
    txnHash: sent.hash,
    minedAt: sent.minedAt,
  });
}

export async function recordGaslessNotRelayed(
  ctx: EngineContext,
  { intent, plan }: StepInput,
  reason: string,
): Promise<void> {
  if (!(await readDepositIntentEntry(ctx.store, intent.intentId))) return;
  await writeRow(ctx.store, intent.intentId, 'deposit', {
    chainId: Number(plan.origin.intent.chainId),
    status: 'FAILED',
    statusReason: `not relayed, the tokens stayed with the owner: ${reason}`,
  });
}
