/**
 * Step `destination`: the relayer runs `deployIfNeededAndExecute(D)`. If the destination calls fail, the
 * account refunds the owner on the destination in the same transaction (DestinationFailed): the receipt
 * then shows the destination FAILED and that same transaction as the refund, and the intent is REFUNDED.
 * Idempotent like the origin step.
 *
 * The fill step enqueues this step as soon as its fill is in the pool. If the account is not funded yet,
 * the execution goes out unsimulated right behind the fill (a priority fee one wei lower), so both land in
 * the same block. That is safe because `execute` reverts as a whole (InsufficientDeposit, state unchanged)
 * when the account holds less than the committed amount: an early execution that lands before the fill
 * moves nothing, and the step then sends the normal, simulated execution once the fill has landed.
 * A chain with `destinationBehindFill` off never gets the early execution: the step waits for the fill.
 */
import type { SentTransaction } from '../../chains/create-transaction-sender.ts';
import { TransactionRevertedError } from '../../chains/errors.ts';
import { minedAt } from '../../chains/mined-at.ts';
import { GAS_LIMIT_MARGIN_DENOMINATOR, GAS_LIMIT_MARGIN_NUMERATOR } from '../../chains/sender-constants.ts';
import type { SignedTransaction } from '../../chains/transaction-journal.ts';
import { encodeDeployIfNeededAndExecute } from '../../contracts/calldata.ts';
import {
  balanceAt,
  executionOutcome,
  findExecutedTransaction,
  readAccountState,
  receiptOf,
} from '../chain-reads.ts';
import { FILL_ABSENT_RECHECK_MS, FILL_LANDING_RECHECK_MS } from '../constants.ts';
import type { EngineContext, StepDefinition, StepInput, StepResult } from '../context.ts';
import { AccountCancelledError, UnexpectedOutcomeError } from '../errors.ts';
import { rowAdvance, rowStages, writeRow } from '../receipts.ts';
import { FILL_PURPOSE } from './fill.ts';

export const DESTINATION_PURPOSE = 'destination-execute';
/** The execution sent right behind a fill still in the pool (journaled apart: it may revert and be followed). */
export const DESTINATION_EARLY_PURPOSE = 'destination-execute-early';

export const destinationStep: StepDefinition = {
  name: 'destination',
  async run(ctx, input) {
    const { intent, plan } = input;
    const d = plan.destination;
    if (!d) throw new UnexpectedOutcomeError('a destination step for a plan without a destination intent');
    const { client, config } = ctx.chain(d.intent.chainId);
    const behindFill = config.destinationBehindFill === true;
    const base = {
      chainId: Number(d.intent.chainId),
      fromAddress: ctx.keys.relayer.address,
      toAddress: config.contracts.intentFactory,
    };
    const data = encodeDeployIfNeededAndExecute(d.intent);
    // An execution that succeeded at its depth writes no MINING row: its mined mark rides with the final
    // rows, written with the intent's end below.
    const stages = rowStages(ctx.store, intent.intentId, 'destination', base, data, { holdMinedMark: true });
    const request = {
      chainId: base.chainId,
      account: ctx.keys.relayer,
      to: config.contracts.intentFactory,
      data,
      purpose: DESTINATION_PURPOSE,
      intentId: intent.intentId,
      recordStage: stages.recordStage,
      signedRow: stages.signedRow,
    };
    // The early execution writes its every stage: it may land first and move nothing, and its mark must not
    // wait for rows it never gets.
    const early = {
      ...request,
      ...rowStages(ctx.store, intent.intentId, 'destination', base, data),
      purpose: DESTINATION_EARLY_PURPOSE,
    };
    // One read of the intent's journal for the execution, the early execution and the fill; taken before the
    // balance read below, so a fill that lands in between shows as funded, never as a fill gone missing.
    const [journal, state] = await Promise.all([
      ctx.store.signedTransactions.listForIntent(intent.intentId),
      readAccountState(client, d.address),
    ]);
    const onChain = (purpose: string) =>
      journal.filter((t) => t.purpose === purpose && t.chainId === request.chainId);
    const journaled = onChain(DESTINATION_PURPOSE);
    const journaledEarly = onChain(DESTINATION_EARLY_PURPOSE);
    const obtained = await obtainExecution(ctx, input, {
      // Each send gets the rows read above: only this step (its lease held) journals either execution.
      request: { ...request, journaled },
      early: { ...early, journaled: journaledEarly },
      journaled,
      journaledEarly,
      fill: onChain(FILL_PURPOSE).at(-1)?.status,
      state,
      behindFill,
    });
    if (obtained.kind === 'wait') return obtained;
    const { sent } = obtained;
    if (sent.receipt.status !== 'success') {
      throw new TransactionRevertedError('the destination execution reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    const outcome = executionOutcome(sent.receipt);
    const mined = { txnHash: sent.hash, minedAt: sent.minedAt };
    const { intentId } = intent;
    const held = stages.heldMinedMark();
    // The rows move with the intent's end, which commits with this step's completion (one statement on
    // Postgres), their events before the status's.
    if (outcome.callsSucceeded) {
      return {
        kind: 'done',
        next: [],
        end: {
          to: 'SUCCEEDED',
          rowsBefore: [rowAdvance(intentId, 'destination', { ...base, ...mined, status: 'SUCCEEDED' }, held)],
        },
      };
    }
    return {
      kind: 'done',
      next: [],
      end: {
        to: 'REFUNDED',
        rowsBefore: [
          rowAdvance(
            intentId,
            'destination',
            {
              ...base,
              ...mined,
              status: 'FAILED',
              statusReason: `${outcome.reason}; the owner was refunded on the destination chain in the same transaction`,
            },
            held,
          ),
          rowAdvance(intentId, 'refund', {
            ...base,
            ...mined,
            toAddress: d.intent.refundRecipient,
            tokenAddress: d.intent.depositToken,
            tokenAmount: d.intent.depositAmount,
            status: 'SUCCEEDED',
          }),
        ],
      },
    };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'destination', {
      chainId: Number(plan.destination?.intent.chainId ?? plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: reason,
    });
  },
};

type Send = Parameters<EngineContext['sender']['sendOnce']>[0];
type Wait = Extract<StepResult, { kind: 'wait' }>;
type Obtained = { kind: 'sent'; sent: SentTransaction } | Wait;

/**
 * The execution to record: ours (journaled, resumed), someone else's, or a new one; or a wait while the
 * fill has not landed.
 */
async function obtainExecution(
  ctx: EngineContext,
  input: StepInput,
  known: {
    request: Send;
    early: Send;
    journaled: readonly unknown[];
    journaledEarly: readonly SignedTransaction[];
    /** The status of the intent's newest journaled fill, if any. */
    fill: string | undefined;
    state: Awaited<ReturnType<typeof readAccountState>>;
    /** The chain's `destinationBehindFill`: whether an early execution may be sent. */
    behindFill: boolean;
  },
): Promise<Obtained> {
  const { request, early, state } = known;
  const sent = (tx: SentTransaction): Obtained => ({ kind: 'sent', sent: tx });
  if (known.journaled.length > 0) return sent(await ctx.sender.sendOnce(request));
  // Resumed only while it can still land: one whose nonce another send took (`replaced`) would be signed
  // again, simulated, and with the fill not mined yet that simulation reverts and fails the intent; the
  // normal execution below waits for the fill instead.
  if (known.journaledEarly.some((t) => t.status !== 'replaced')) {
    const tried = await ctx.sender.sendOnce(early);
    if (tried.receipt.status === 'success') return sent(tried);
    // Reverted: it landed before the fill and moved nothing; the normal execution follows.
  }
  const d = input.plan.destination!;
  const { client } = ctx.chain(d.intent.chainId);
  if (state === 'cancelled')
    throw new AccountCancelledError('the destination account was cancelled by its owner');
  if (state === 'executed') {
    // Anyone may execute a destination intent: someone else did. Record their transaction.
    const hash = await findExecutedTransaction(client, d.address);
    if (!hash)
      throw new UnexpectedOutcomeError(
        'the destination account is executed but its transaction is not found',
      );
    const receipt = await receiptOf(client, hash);
    return sent({ hash, receipt, minedAt: await minedAt(client, receipt) });
  }
  const { fill } = known;
  // A fill recorded as mined funded the account (the simulation below would catch anything else): no read.
  const funded =
    fill === 'mined' || (await balanceAt(client, d.intent.depositToken, d.address)) >= d.intent.depositAmount;
  if (funded) return sent(await ctx.sender.sendOnce(request));
  const behind = await sendBehindFill(ctx, input.plan, early, {
    fill,
    // At most one early execution per intent, and none on a chain with the switch off.
    mayTry: known.journaledEarly.length === 0 && known.behindFill,
  });
  if (behind.kind === 'sent' && behind.sent.receipt.status !== 'success')
    return { kind: 'wait', afterMs: FILL_LANDING_RECHECK_MS, reason: 'the fill has not landed yet' };
  return behind;
}

/**
 * The account is not funded yet. With the fill in the pool and an early execution allowed (none tried
 * before, the chain's switch on), send one right behind it, unsimulated; otherwise wait for the fill to land (or for its step to send it again, which
 * is looked at every FILL_ABSENT_RECHECK_MS until the intent ends).
 */
async function sendBehindFill(
  ctx: EngineContext,
  plan: StepInput['plan'],
  early: Send,
  known: { fill: string | undefined; mayTry: boolean },
): Promise<Obtained> {
  // Mined (it landed after our balance read) or broadcast: it lands within a block; anything else (not
  // sent yet, replaced, reverted) is the fill step's to resolve.
  if (known.fill !== 'broadcast' && known.fill !== 'mined')
    return {
      kind: 'wait',
      afterMs: FILL_ABSENT_RECHECK_MS,
      reason: 'the destination account is not funded yet',
    };
  const planned = plan.fees.destinationGas?.gasLimit;
  if (known.fill === 'mined' || !known.mayTry || planned === undefined)
    return { kind: 'wait', afterMs: FILL_LANDING_RECHECK_MS, reason: 'the fill has not landed yet' };
  // The plan's destination gas covers the fill and the execution: as a limit for the execution alone it
  // leaves the fill's share as headroom, with the sender's usual margin on top.
  const gasLimit = (planned * GAS_LIMIT_MARGIN_NUMERATOR) / GAS_LIMIT_MARGIN_DENOMINATOR;
  return { kind: 'sent', sent: await ctx.sender.sendOnce({ ...early, unsimulated: { gasLimit } }) };
}
