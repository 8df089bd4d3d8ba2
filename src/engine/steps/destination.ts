/**
 * Step `destination`: the relayer runs `deployIfNeededAndExecute(D)` once the fill has landed. If the
 * destination calls fail, the account refunds the owner on the destination in the same transaction
 * (DestinationFailed): the receipt then shows the destination FAILED and that same transaction as the
 * refund, and the intent is REFUNDED. Idempotent like the origin step.
 */
import { TransactionRevertedError } from '../../chains/errors.ts';
import { minedAt } from '../../chains/mined-at.ts';
import { encodeDeployIfNeededAndExecute } from '../../contracts/calldata.ts';
import { executionOutcome, findExecutedTransaction, readAccountState, receiptOf } from '../chain-reads.ts';
import type { StepDefinition } from '../context.ts';
import { AccountCancelledError, UnexpectedOutcomeError } from '../errors.ts';
import { rowStages, writeRow } from '../receipts.ts';

export const DESTINATION_PURPOSE = 'destination-execute';

export const destinationStep: StepDefinition = {
  name: 'destination',
  async run(ctx, { intent, plan }) {
    const d = plan.destination;
    if (!d) throw new UnexpectedOutcomeError('a destination step for a plan without a destination intent');
    const { client, config } = ctx.chain(d.intent.chainId);
    const base = {
      chainId: Number(d.intent.chainId),
      fromAddress: ctx.keys.relayer.address,
      toAddress: config.contracts.intentFactory,
    };
    const request = {
      chainId: base.chainId,
      account: ctx.keys.relayer,
      to: config.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(d.intent),
      purpose: DESTINATION_PURPOSE,
      intentId: intent.intentId,
      onStage: rowStages(ctx.store, intent.intentId, 'destination', base),
    };
    const [journaled, state] = await Promise.all([
      ctx.sender.journaled(request),
      readAccountState(client, d.address),
    ]);
    let sent: { hash: `0x${string}`; receipt: Awaited<ReturnType<typeof receiptOf>>; minedAt: Date };
    if (journaled.length === 0 && state === 'cancelled') {
      throw new AccountCancelledError('the destination account was cancelled by its owner');
    } else if (journaled.length === 0 && state === 'executed') {
      // Anyone may execute a destination intent: someone else did. Record their transaction.
      const hash = await findExecutedTransaction(client, d.address);
      if (!hash)
        throw new UnexpectedOutcomeError(
          'the destination account is executed but its transaction is not found',
        );
      const receipt = await receiptOf(client, hash);
      sent = { hash, receipt, minedAt: await minedAt(client, receipt) };
    } else {
      sent = await ctx.sender.sendOnce(request);
    }
    if (sent.receipt.status !== 'success') {
      throw new TransactionRevertedError('the destination execution reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    const outcome = executionOutcome(sent.receipt);
    const mined = { txnHash: sent.hash, minedAt: sent.minedAt };
    if (outcome.callsSucceeded) {
      await writeRow(ctx.store, intent.intentId, 'destination', { ...base, ...mined, status: 'SUCCEEDED' });
      await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'SUCCEEDED' });
      return { kind: 'done', next: [] };
    }
    await writeRow(ctx.store, intent.intentId, 'destination', {
      ...base,
      ...mined,
      status: 'FAILED',
      statusReason: `${outcome.reason}; the owner was refunded on the destination chain in the same transaction`,
    });
    await writeRow(ctx.store, intent.intentId, 'refund', {
      ...base,
      ...mined,
      toAddress: d.intent.refundRecipient,
      tokenAddress: d.intent.depositToken,
      tokenAmount: d.intent.depositAmount,
      status: 'SUCCEEDED',
    });
    await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'REFUNDED' });
    return { kind: 'done', next: [] };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'destination', {
      chainId: Number(plan.destination?.intent.chainId ?? plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: reason,
    });
  },
};
