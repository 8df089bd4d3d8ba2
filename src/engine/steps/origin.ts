/**
 * Step `origin`: the relayer runs `deployIfNeededAndExecute(O)` (swap, fee, lock). Idempotent: an account
 * already executed is not sent to again (its transaction is taken from the journal or from its Executed
 * log), and a journaled transaction is resumed rather than signed again.
 */
import type { Hex } from 'viem';
import { TransactionRevertedError } from '../../chains/errors.ts';
import { minedAt } from '../../chains/mined-at.ts';
import type { JournalMark } from '../../chains/transaction-journal.ts';
import { encodeDeployIfNeededAndExecute } from '../../contracts/calldata.ts';
import type { SignedTransaction } from '../../store/types.ts';
import {
  findExecutedTransaction,
  openedOrder,
  readAccountState,
  receiptOf,
  recentChainNow,
} from '../chain-reads.ts';
import type { EngineContext, StepDefinition, StepInput } from '../context.ts';
import { AccountCancelledError, DeadlinePassedError, UnexpectedOutcomeError } from '../errors.ts';
import {
  checkGaslessSendable,
  type DepositIntentEntry,
  depositAuthData,
  readDepositIntentEntry,
  recordGaslessDeposit,
  recordGaslessNotRelayed,
} from '../gasless/index.ts';
import { rowAdvance, rowStages, writeRow } from '../receipts.ts';

export const ORIGIN_PURPOSE = 'origin-execute';

export const originStep: StepDefinition = {
  name: 'origin',
  async run(ctx, input) {
    const { intent, plan } = input;
    const o = plan.origin.intent;
    const { config } = ctx.chain(o.chainId);
    const base = {
      chainId: Number(o.chainId),
      fromAddress: ctx.keys.relayer.address,
      toAddress: config.contracts.intentFactory,
    };
    // Read once and handed down to the gasless hooks below (each read the receipt rows before).
    const [gasless] = await Promise.all([
      readDepositIntentEntry(ctx.store, intent.intentId),
      writeRow(ctx.store, intent.intentId, 'origin', { ...base, status: 'PENDING' }),
    ]);

    const sent = await executeOnce(ctx, input, base, gasless);
    if (sent.receipt.status !== 'success') {
      throw new TransactionRevertedError('the origin execution reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    await recordGaslessDeposit(ctx, input, sent, gasless);
    const succeeded = { ...base, status: 'SUCCEEDED' as const, txnHash: sent.hash, minedAt: sent.minedAt };
    if (plan.kind === 'same-chain' || !plan.destination) {
      // Same chain: the origin calls delivered; the destination entry is this same transaction.
      const rows = await ctx.store.transactions.list(intent.intentId);
      const destination = rows.some((r) => r.kind === 'destination')
        ? [
            rowAdvance(intent.intentId, 'destination', {
              chainId: Number(o.chainId),
              status: 'SUCCEEDED',
              txnHash: sent.hash,
              minedAt: sent.minedAt,
            }),
          ]
        : [];
      // The rows move with the intent's end (one statement on Postgres), their events before the status's.
      await ctx.store.intents.updateStatus({
        intentId: intent.intentId,
        to: 'SUCCEEDED',
        rowsBefore: [rowAdvance(intent.intentId, 'origin', succeeded), ...destination],
      });
      return { kind: 'done', next: [] };
    }
    // Fill, settle and order-refund take the order without reading the SUCCEEDED row.
    rememberOrder(ctx, intent.intentId, sent);
    // order-refund waits for fillDeadline + grace and returns the locked amount if no fill ever lands. The
    // SUCCEEDED row commits with this completion, before either starts.
    return {
      kind: 'done',
      next: ['fill', 'order-refund'],
      row: { kind: 'origin', write: succeeded, journalMark: sent.minedMark },
    };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await recordGaslessNotRelayed(ctx, { intent, plan }, reason);
    // The deposit stays in the origin account, refundable to the owner (refund path, docs/engine.md).
    await writeRow(ctx.store, intent.intentId, 'origin', {
      chainId: Number(plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: reason,
    });
  },
};

/** Hands the order to fill, settle and order-refund (they read the receipt again if it is not there). */
function rememberOrder(
  ctx: EngineContext,
  intentId: string,
  sent: { hash: Hex; receipt: Awaited<ReturnType<typeof receiptOf>> },
) {
  let order: ReturnType<typeof openedOrder>;
  try {
    order = openedOrder(sent.receipt);
  } catch {
    return; // not exactly one OrderOpened: the fill step reads the receipt and reports it
  }
  ctx.orders?.remember(sent.hash, order, intentId);
}

async function executeOnce(
  ctx: EngineContext,
  { intent, plan }: StepInput,
  base: { chainId: number; fromAddress: string; toAddress: string },
  gasless: DepositIntentEntry | undefined,
): Promise<{
  hash: Hex;
  receipt: Awaited<ReturnType<typeof receiptOf>>;
  minedAt: Date;
  /** The journal's mined mark, held for the SUCCEEDED row the completion carries (rowStages). */
  minedMark?: JournalMark | undefined;
}> {
  const o = plan.origin.intent;
  const { client, config } = ctx.chain(o.chainId);
  const data = encodeDeployIfNeededAndExecute(o, await depositAuthData(ctx, { intent, plan }, gasless));
  const request = {
    chainId: Number(o.chainId),
    account: ctx.keys.relayer,
    to: config.contracts.intentFactory,
    data,
    purpose: ORIGIN_PURPOSE,
    intentId: intent.intentId,
  };
  // Cross-chain, the SUCCEEDED row rides with the completion, and the mined mark with it (no MINING row).
  const crossChain = plan.kind !== 'same-chain' && plan.destination !== undefined;
  const stages = rowStages(ctx.store, intent.intentId, 'origin', base, data, { holdMinedMark: crossChain });
  const send = async (journaled: SignedTransaction[]) => {
    const sent = await ctx.sender.sendOnce({
      ...request,
      recordStage: stages.recordStage,
      signedRow: stages.signedRow,
      journaled,
    });
    return { ...sent, minedMark: stages.heldMinedMark() };
  };
  // Independent reads in one round trip; the clock is only used on the first attempt (no journal yet).
  const [journaled, state, now] = await Promise.all([
    ctx.sender.journaled({ ...request }),
    readAccountState(client, plan.origin.address),
    recentChainNow(ctx, o.chainId),
  ]);
  // The rows just read go to the send: only this step (its lease held) journals this intent's origin execution.
  if (journaled.length > 0) return send(journaled);
  if (state === 'cancelled') throw new AccountCancelledError('the owner cancelled the origin account');
  if (state === 'executed') {
    // Executed, but not by a transaction in our journal (a lost database): find it on-chain.
    const hash = await findExecutedTransaction(client, plan.origin.address);
    if (!hash)
      throw new UnexpectedOutcomeError('the origin account is executed but its transaction is not found');
    const receipt = await receiptOf(client, hash);
    return { hash, receipt, minedAt: await minedAt(client, receipt) };
  }
  if (now >= o.deadline) {
    throw new DeadlinePassedError('the origin deadline passed before execution', {
      details: { deadline: o.deadline, now },
    });
  }
  await checkGaslessSendable({ intent, plan }, now, gasless);
  return send(journaled);
}
