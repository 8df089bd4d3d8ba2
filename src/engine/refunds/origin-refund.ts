/**
 * Step `origin-refund`: returns what sits in the origin intent address to the owner when the origin never
 * executed (an underpaid, wrong-token or missing deposit, an origin execution that cannot succeed), and
 * returns late deposits (arriving after the origin executed, after a cancellation or after a refund).
 *
 * Journaled at the start of execution (and by the deposit watcher for a committed intent whose address holds
 * something after its deadline, or a quoted one whose address received a deposit without a commit). Before the deadline an unexecuted account is refundable by its owner only,
 * so the step waits for the deadline by chain time; after it, the relayer sends
 * `factory.deployIfNeededAndRefund(O, every token held, native)`. Then it keeps watching the address for
 * LATE_DEPOSIT_WATCH_SECONDS. Idempotent: every round is its own journaled transaction (`origin-refund:N`),
 * resumed after a crash, and a refund sent by someone else is found in the account's logs.
 */
import type { Hex } from 'viem';
import type { SentTransaction } from '../../chains/create-transaction-sender.ts';
import { RetryLaterError } from '../../chains/errors.ts';
import { isTerminal } from '../../store/statuses.ts';
import { type AccountStateName, chainNow, readAccountState, receiptOf } from '../chain-reads.ts';
import type { EngineContext, StepDefinition, StepInput, StepResult } from '../context.ts';
import { writeRow } from '../receipts.ts';
import { findAccountEvent, mainReturn, type RefundOutcome, refundOutcome } from './account-events.ts';
import { LATE_DEPOSIT_WATCH_SECONDS, ORIGIN_REFUND_PURPOSE_PREFIX } from './constants.ts';
import { describeAmounts, type HeldBalance, heldBalances } from './held-balances.ts';
import { refundRounds } from './refund-rounds.ts';
import { firstLookAtDeadline, refundTiming, waitForChainTime } from './refund-timing.ts';
import { sendAccountRefund } from './send-account-refund.ts';

export const originRefundStep: StepDefinition = {
  name: 'origin-refund',
  runsAfterTerminal: true,
  firstLookAt: (ctx, { plan }) => firstLookAtDeadline(ctx, plan.origin.intent.deadline),
  async run(ctx, input) {
    const { intent, plan } = input;
    const o = plan.origin.intent;
    const chain = ctx.chain(o.chainId);
    const rounds = await refundRounds(ctx, {
      intentId: intent.intentId,
      chainId: Number(o.chainId),
      prefix: ORIGIN_REFUND_PURPOSE_PREFIX,
    });
    const open = rounds.find((r) => !r.finished);
    const state = await readAccountState(chain.client, plan.origin.address);
    const now = await chainNow(chain.client);
    if (!open && state === 'none' && now < o.deadline) {
      return waitForChainTime(ctx, now, o.deadline, `the origin refund opens at the deadline ${o.deadline}`);
    }
    const held = await heldBalances(chain, plan.origin.address, o.depositToken);
    if (open || held.length > 0) {
      if (!open && state === 'executed' && !isTerminal(intent.status)) {
        // A late deposit while the intent is still running: returned once it finishes.
        return { kind: 'wait', afterMs: refundTiming(ctx).lateDepositRecheckMs, reason: 'late deposit held' };
      }
      const purpose = open?.purpose ?? `${ORIGIN_REFUND_PURPOSE_PREFIX}${rounds.length + 1}`;
      const sent = await sendAccountRefund(ctx, {
        intentId: intent.intentId,
        account: o,
        side: 'origin',
        purpose,
        held,
      });
      const outcome = refundOutcome(sent.receipt, plan.origin.address);
      await recordRefund(ctx, input, state, sent, outcome);
      if (outcome.skipped.length > 0) {
        throw new RetryLaterError(
          'the account skipped tokens it could not send; another refund round follows',
          {
            details: { hash: sent.hash, skipped: outcome.skipped },
          },
        );
      }
    } else if (rounds.length === 0 && !isTerminal(intent.status)) {
      await settleWithoutRefund(ctx, input, state);
    }
    return watchLateDeposits(ctx, now, o.deadline);
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'refund', {
      chainId: Number(plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: `the origin refund failed: ${reason}`,
    });
  },
};

/**
 * The receipt after a refund round. An account that never executed: its deposit came back, so the deposit
 * and origin rows say why it did not run, the refund row carries the transaction, the intent is REFUNDED.
 * Otherwise a late deposit: the refund row is written when the receipt has none yet; the status stays.
 */
async function recordRefund(
  ctx: EngineContext,
  input: StepInput,
  state: AccountStateName,
  sent: SentTransaction,
  outcome: RefundOutcome,
): Promise<void> {
  const { intent, plan } = input;
  const o = plan.origin.intent;
  const { config } = ctx.chain(o.chainId);
  if (outcome.refunded.length === 0) return;
  const returned = describeAmounts(config, outcome.refunded);
  ctx.log.info('origin refund mined', { intentId: intent.intentId, hash: sent.hash, returned });
  let why = 'a late deposit, after the intent had run';
  if (state === 'none') {
    why = await explainNotExecuted(ctx, input, outcome.refunded);
  } else if (state === 'cancelled') {
    why = 'a deposit after the owner cancelled the intent';
  }
  const main = mainReturn(outcome, o.depositToken)!;
  await writeRow(ctx.store, intent.intentId, 'refund', {
    chainId: Number(o.chainId),
    status: 'SUCCEEDED',
    fromAddress: ctx.keys.relayer.address,
    toAddress: o.refundRecipient,
    tokenAddress: main.token,
    tokenAmount: main.amount,
    txnHash: sent.hash,
    minedAt: sent.minedAt,
    statusReason: `returned ${returned} to the owner on ${config.name}: ${why}`,
  });
  if (state === 'none') await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'REFUNDED' });
}

/** Marks the deposit and origin rows FAILED (unless final) and returns the reason the origin did not run. */
async function explainNotExecuted(
  ctx: EngineContext,
  { intent, plan }: StepInput,
  found: readonly HeldBalance[],
): Promise<string> {
  const o = plan.origin.intent;
  const { config } = ctx.chain(o.chainId);
  const chainId = Number(o.chainId);
  if (intent.status === 'QUOTED') return explainNeverCommitted(ctx, intent.intentId, chainId);
  const deposited = found.find((f) => f.token.toLowerCase() === o.depositToken.toLowerCase())?.amount ?? 0n;
  const required = describeAmounts(config, [{ token: o.depositToken, amount: o.depositAmount }]);
  const shortReason =
    deposited >= o.depositAmount
      ? undefined
      : `no complete deposit before the origin deadline: ${describeAmounts(config, found)} arrived, ${required} required`;
  if (shortReason) {
    await writeRow(ctx.store, intent.intentId, 'deposit', {
      chainId,
      status: 'FAILED',
      statusReason: shortReason,
    });
  }
  const rows = await ctx.store.transactions.list(intent.intentId);
  const originRow = rows.find((r) => r.kind === 'origin');
  const reason =
    (originRow?.status === 'FAILED' && originRow.statusReason) ||
    shortReason ||
    'the origin was not executed before its deadline';
  await writeRow(ctx.store, intent.intentId, 'origin', {
    chainId,
    status: 'FAILED',
    statusReason: `not executed before the deadline: ${reason}`,
  });
  return `the origin was not executed (${reason})`;
}

/** A deposit to a quote never committed (record-quoted-deposit.ts): nothing was meant to run. */
async function explainNeverCommitted(ctx: EngineContext, intentId: string, chainId: number): Promise<string> {
  const why = 'the intent was never committed';
  await writeRow(ctx.store, intentId, 'deposit', {
    chainId,
    status: 'FAILED',
    statusReason: `${why}: the deposit was returned to the owner after the origin deadline (the refund transaction)`,
  });
  await writeRow(ctx.store, intentId, 'origin', {
    chainId,
    status: 'FAILED',
    statusReason: `not executed: ${why}`,
  });
  return why;
}

/**
 * Nothing to return at the deadline of an account that never executed: the owner cancelled it (ABORTED,
 * with their transaction), someone else already refunded it (REFUNDED, with theirs), or nothing ever arrived
 * (FAILED). Late deposits are still watched for and returned.
 */
async function settleWithoutRefund(
  ctx: EngineContext,
  input: StepInput,
  state: AccountStateName,
): Promise<void> {
  const { intent, plan } = input;
  const o = plan.origin.intent;
  const { client, config } = ctx.chain(o.chainId);
  const chainId = Number(o.chainId);
  const event = state === 'cancelled' ? 'Cancelled' : 'Refunded';
  const hash = state === 'executed' ? undefined : await findAccountEvent(client, plan.origin.address, event);
  if (hash) {
    const receipt = await receiptOf(client, hash);
    const outcome = refundOutcome(receipt, plan.origin.address);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const main = mainReturn(outcome, o.depositToken);
    await writeRow(ctx.store, intent.intentId, 'refund', {
      chainId,
      status: 'SUCCEEDED',
      fromAddress: receipt.from,
      toAddress: main?.to ?? o.refundRecipient,
      tokenAddress: main?.token ?? o.depositToken,
      tokenAmount: main?.amount ?? 0n,
      txnHash: hash as Hex,
      minedAt: new Date(Number(block.timestamp) * 1000),
      statusReason:
        state === 'cancelled'
          ? 'the owner cancelled the intent on-chain and took the deposit back'
          : `refunded on ${config.name} by ${receipt.from} after the deadline`,
    });
    await ctx.store.intents.updateStatus({
      intentId: intent.intentId,
      to: state === 'cancelled' ? 'ABORTED' : 'REFUNDED',
    });
    return;
  }
  if (state === 'executed') return;
  const required = describeAmounts(config, [{ token: o.depositToken, amount: o.depositAmount }]);
  await writeRow(ctx.store, intent.intentId, 'deposit', {
    chainId,
    status: 'FAILED',
    statusReason: `no deposit arrived before the origin deadline (${required} required); a deposit that still arrives is returned to the owner`,
  });
  await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'FAILED' });
}

function watchLateDeposits(ctx: EngineContext, now: bigint, deadline: bigint): StepResult {
  const until = deadline + LATE_DEPOSIT_WATCH_SECONDS;
  if (now >= until) return { kind: 'done', next: [] };
  return {
    kind: 'wait',
    afterMs: refundTiming(ctx).lateDepositRecheckMs,
    reason: `watching the origin address for late deposits until chain time ${until}`,
  };
}
