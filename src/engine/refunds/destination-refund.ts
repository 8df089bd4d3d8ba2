/**
 * Step `destination-refund`: the solver filled (the destination intent address holds the output) but the
 * destination account was never executed before `D.deadline` (the relayer was down too long, its execution
 * kept failing, the chain could not be reached). The account can no longer execute, and after its deadline
 * anyone may refund it, so the relayer sends `factory.deployIfNeededAndRefund(D, every token held, native)`:
 * the output goes to `D.refundRecipient` on the destination chain, intent REFUNDED.
 *
 * Journaled by the fill step together with `destination`, so a crash cannot lose it. It never races the
 * normal execution: it reads the destination clock first and the account state after it, and sends only
 * when the account is not executed at a block at or past `D.deadline` (from then on `execute` reverts
 * `Expired`); an account the owner cancelled is settled at that point too. A normal intent is terminal once its destination step ran
 * (SUCCEEDED, or REFUNDED inside the execution), and the runner skips this step then. Idempotent: each round
 * is its own journaled transaction (`destination-refund:N`), resumed after a crash, and a refund someone
 * else sent is found from the account's `Refunded` (or the owner's `Cancelled`) log.
 */
import type { Hex } from 'viem';
import { RetryLaterError } from '../../chains/errors.ts';
import { minedAt } from '../../chains/mined-at.ts';
import type { PlannedIntent } from '../../intents/plan/types.ts';
import { type AccountStateName, readAccountState, receiptOf, recentChainNow } from '../chain-reads.ts';
import type { EngineContext, StepDefinition, StepInput, StepResult } from '../context.ts';
import { writeRow } from '../receipts.ts';
import { findAccountEvent, mainReturn, type RefundOutcome, refundOutcome } from './account-events.ts';
import { DESTINATION_REFUND_PURPOSE_PREFIX } from './constants.ts';
import { describeAmounts, heldBalances } from './held-balances.ts';
import { refundRounds } from './refund-rounds.ts';
import { firstLookAtDeadline, waitForChainTime } from './refund-timing.ts';
import { sendAccountRefund } from './send-account-refund.ts';

const DONE: StepResult = { kind: 'done', next: [] };

export const destinationRefundStep: StepDefinition = {
  name: 'destination-refund',
  // Not `runsAfterTerminal`: once the intent is terminal its destination account has run (or the order was
  // refunded on the origin, so nothing was filled), and the runner skips this step.
  firstLookAt: (ctx, { plan }) =>
    plan.destination ? firstLookAtDeadline(ctx, plan.destination.intent.deadline) : new Date(),
  async run(ctx, input) {
    const { intent, plan } = input;
    const d = plan.destination;
    if (!d) return DONE;
    const chain = ctx.chain(d.intent.chainId);
    const chainId = Number(d.intent.chainId);
    const rounds = await refundRounds(ctx, {
      intentId: intent.intentId,
      chainId,
      prefix: DESTINATION_REFUND_PURPOSE_PREFIX,
    });
    const open = rounds.find((r) => !r.finished);
    // The clock before the state: an account still not executed at a block at or past its deadline can
    // never execute (`execute` reverts `Expired`), so the refund cannot take money a late execution needed.
    // The shared latest block is such a block once it is past the deadline; before that nothing else is read
    // (a normal intent costs no RPC call here: it is terminal, and skipped, at the step's next look).
    const now = await recentChainNow(ctx, chainId);
    if (!open && now < d.intent.deadline) {
      return waitForChainTime(
        ctx,
        now,
        d.intent.deadline,
        `the destination refund opens at the destination deadline ${d.intent.deadline} if the account has not executed`,
      );
    }
    const state = await readAccountState(chain.client, d.address);
    if (!open && state === 'executed') return DONE; // the destination step records the execution
    const held = await heldBalances(chain, d.address, d.intent.depositToken);
    if (open || held.length > 0) {
      const purpose = open?.purpose ?? `${DESTINATION_REFUND_PURPOSE_PREFIX}${rounds.length + 1}`;
      const sent = await sendAccountRefund(ctx, {
        intentId: input.intent.intentId,
        account: d.intent,
        side: 'destination',
        purpose,
        held,
      });
      const outcome = refundOutcome(sent.receipt, d.address);
      await recordRefund(ctx, input, d, state, { ...sent, from: ctx.keys.relayer.address }, outcome);
      if (outcome.skipped.length > 0) {
        throw new RetryLaterError(
          'the destination account skipped tokens it could not send; another refund round follows',
          { details: { hash: sent.hash, skipped: outcome.skipped } },
        );
      }
      return DONE;
    }
    await recordForeignRefund(ctx, input, d, state);
    return DONE;
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'refund', {
      chainId: Number(plan.destination?.intent.chainId ?? plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: `the destination refund failed: ${reason}`,
    });
  },
};

/**
 * Nothing held and no round of ours: someone else refunded the account after its deadline (their
 * `Refunded` log) or the owner cancelled it (`Cancelled`, the same transaction returned the funds). Their
 * transaction is recorded. Nothing found (older than the log look-back): the destination row says so.
 */
async function recordForeignRefund(
  ctx: EngineContext,
  input: StepInput,
  d: PlannedIntent,
  state: AccountStateName,
): Promise<void> {
  const { client } = ctx.chain(d.intent.chainId);
  const hash = await findAccountEvent(client, d.address, state === 'cancelled' ? 'Cancelled' : 'Refunded');
  if (!hash) {
    ctx.log.error('destination account not executed after its deadline and holds nothing to return', {
      intentId: input.intent.intentId,
      account: d.address,
    });
    await writeRow(ctx.store, input.intent.intentId, 'destination', {
      chainId: Number(d.intent.chainId),
      status: 'FAILED',
      statusReason: `not executed before the destination deadline (${await notExecutedReason(ctx, input)}); the destination address holds nothing to return`,
    });
    return;
  }
  const receipt = await receiptOf(client, hash as Hex);
  const outcome = refundOutcome(receipt, d.address);
  await recordRefund(
    ctx,
    input,
    d,
    state,
    { hash: hash as Hex, minedAt: await minedAt(client, receipt), from: receipt.from },
    outcome,
  );
}

/** Destination FAILED with why it did not run, the refund row with the transaction, intent REFUNDED. */
async function recordRefund(
  ctx: EngineContext,
  input: StepInput,
  d: PlannedIntent,
  state: AccountStateName,
  tx: { hash: Hex; minedAt: Date; from: string },
  outcome: RefundOutcome,
): Promise<void> {
  const { intent } = input;
  const { config } = ctx.chain(d.intent.chainId);
  const chainId = config.chainId;
  if (outcome.refunded.length === 0) return;
  const returned = describeAmounts(config, outcome.refunded);
  const why =
    state === 'cancelled'
      ? 'the owner cancelled the destination intent'
      : `the destination was not executed before its deadline (${await notExecutedReason(ctx, input)})`;
  ctx.log.info('destination refund mined', { intentId: intent.intentId, hash: tx.hash, returned });
  await writeRow(ctx.store, intent.intentId, 'destination', {
    chainId,
    status: 'FAILED',
    statusReason: `${why}; the filled amount went back to the owner on ${config.name}`,
  });
  const main = mainReturn(outcome, d.intent.depositToken)!;
  await writeRow(ctx.store, intent.intentId, 'refund', {
    chainId,
    status: 'SUCCEEDED',
    fromAddress: tx.from,
    toAddress: d.intent.refundRecipient,
    tokenAddress: main.token,
    tokenAmount: main.amount,
    txnHash: tx.hash,
    minedAt: tx.minedAt,
    statusReason: `returned ${returned} to the owner on ${config.name}: ${why}`,
  });
  await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'REFUNDED' });
}

/** The destination step's own account of it: its FAILED row's reason, else its last error, else none. */
async function notExecutedReason(ctx: EngineContext, { intent }: StepInput): Promise<string> {
  const rows = await ctx.store.transactions.list(intent.intentId);
  const row = rows.find((r) => r.kind === 'destination');
  if (row?.status === 'FAILED' && row.statusReason) return `last attempt: ${row.statusReason}`;
  const step = (await ctx.store.steps.list(intent.intentId)).find((s) => s.step === 'destination');
  const last = step?.lastError?.replace(/^waiting: /, '');
  return last ? `last attempt: ${last}` : 'the relayer did not execute it';
}
