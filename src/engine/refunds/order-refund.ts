/**
 * Step `order-refund`: a cross-chain order that is never filled (the solver lacks inventory, the destination
 * chain is down past the fill deadline) stays locked in the OriginSettler. After `fillDeadline + grace`
 * (the settler's own immutable grace, read from the contract) the relayer calls `OriginSettler.refund(order)`
 * and the owner gets the locked amount back on the origin chain: intent REFUNDED.
 *
 * Journaled when the origin step finishes. Idempotent: the order status is read first (Settled: nothing to
 * do; Refunded by someone else: their transaction is recorded), and a journaled refund is resumed. It never
 * refunds an order that was filled (the user was paid on the destination; only settlement is late), and
 * refunds an order the destination chain cannot be asked about only when our solver never sent a fill.
 */
import { getAbiItem, type Hex, parseEventLogs } from 'viem';
import type { SentTransaction } from '../../chains/create-transaction-sender.ts';
import { ChainUnavailableError, TransactionRevertedError } from '../../chains/errors.ts';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { originSettlerAbi } from '../../contracts/abis.generated.ts';
import { encodeOrderRefund } from '../../contracts/calldata.ts';
import { FillStatus, OrderStatus } from '../../contracts/types.ts';
import { chainNow, readFillStatus, receiptOf } from '../chain-reads.ts';
import { LOG_LOOKBACK_BLOCKS } from '../constants.ts';
import type { EngineContext, StepDefinition, StepInput, StepResult } from '../context.ts';
import { writeRow } from '../receipts.ts';
import { FILL_PURPOSE } from '../steps/fill.ts';
import { type LoadedOrder, loadOrder } from '../steps/load-order.ts';
import { ORDER_REFUND_PURPOSE } from './constants.ts';
import { describeAmounts } from './held-balances.ts';
import { firstLookAtDeadline, waitForChainTime } from './refund-timing.ts';

export const orderRefundStep: StepDefinition = {
  name: 'order-refund',
  runsAfterTerminal: true,
  // The order refund opens at fillDeadline + grace; a look at fillDeadline is early, never late.
  firstLookAt: (ctx, { plan }) =>
    plan.order ? firstLookAtDeadline(ctx, plan.order.fillDeadline) : new Date(),
  async run(ctx, input) {
    if (input.plan.kind !== 'cross-chain') return { kind: 'done', next: [] };
    const loaded = await loadOrder(ctx, input);
    const origin = ctx.chain(loaded.originChainId);
    const settler = origin.config.contracts.originSettler;
    const request = {
      chainId: origin.config.chainId,
      account: ctx.keys.relayer,
      to: settler,
      data: encodeOrderRefund(loaded.order),
      purpose: ORDER_REFUND_PURPOSE,
      intentId: input.intent.intentId,
    };
    if ((await ctx.sender.journaled(request)).length > 0) {
      await record(ctx, input, loaded, await mined(ctx.sender.sendOnce(request)));
      return { kind: 'done', next: [] };
    }
    const status = await withChainErrors(() =>
      origin.client.readContract({
        address: settler,
        abi: originSettlerAbi,
        functionName: 'orderStatus',
        args: [loaded.orderId],
      }),
    );
    if (status === OrderStatus.Settled) return { kind: 'done', next: [] };
    if (status === OrderStatus.Refunded) {
      await recordForeignRefund(ctx, input, loaded);
      return { kind: 'done', next: [] };
    }
    const due = await refundableAt(ctx, loaded);
    const now = await chainNow(origin.client);
    if (now <= due) return waitForChainTime(ctx, now, due + 1n, `the order refund opens after ${due}`);
    const blocked = await fillMayStand(ctx, input, loaded);
    if (blocked) return blocked;
    await record(ctx, input, loaded, await mined(ctx.sender.sendOnce(request)));
    return { kind: 'done', next: [] };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'refund', {
      chainId: Number(plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: `the settlement refund failed: ${reason}`,
    });
  },
};

async function mined(sending: Promise<SentTransaction>): Promise<SentTransaction> {
  const sent = await sending;
  if (sent.receipt.status !== 'success') {
    throw new TransactionRevertedError('the order refund reverted on-chain', {
      details: { hash: sent.hash },
    });
  }
  return sent;
}

/** fillDeadline + the settler's grace (an immutable of the deployed contract: what counts on-chain). */
async function refundableAt(ctx: EngineContext, { order, originChainId }: LoadedOrder): Promise<bigint> {
  const origin = ctx.chain(originChainId);
  const grace = await withChainErrors(() =>
    origin.client.readContract({
      address: origin.config.contracts.originSettler,
      abi: originSettlerAbi,
      functionName: 'grace',
    }),
  );
  return order.fillDeadline + grace;
}

/**
 * A reason not to refund (yet): the order was filled (the user has been paid; refunding would pay twice),
 * or the destination clock has not passed the fill deadline (a fill could still land). An unreachable
 * destination chain allows the refund only when our solver never signed a fill for this intent.
 */
async function fillMayStand(
  ctx: EngineContext,
  { intent }: StepInput,
  { order, orderId }: LoadedOrder,
): Promise<StepResult | undefined> {
  const dest = ctx.chain(order.destChainId);
  try {
    const [filled, destNow] = await Promise.all([
      readFillStatus(dest.client, order.destSettler, orderId),
      chainNow(dest.client),
    ]);
    if (filled === FillStatus.Filled) {
      ctx.log.error(
        'order filled but not settled within the grace: not refunding what the solver delivered',
        {
          intentId: intent.intentId,
          orderId,
        },
      );
      return { kind: 'done', next: [] };
    }
    if (destNow <= order.fillDeadline) {
      return waitForChainTime(
        ctx,
        destNow,
        order.fillDeadline + 1n,
        'the destination clock is before the fill deadline',
      );
    }
    return undefined;
  } catch (error) {
    if (!(error instanceof ChainUnavailableError)) throw error;
    const fills = await ctx.sender.journaled({
      intentId: intent.intentId,
      purpose: FILL_PURPOSE,
      chainId: dest.config.chainId,
    });
    if (fills.length > 0) throw error; // our fill may have landed: wait for the chain to answer
    ctx.log.warn('destination chain unreachable and no fill was sent: refunding the order', {
      intentId: intent.intentId,
    });
    return undefined;
  }
}

async function record(ctx: EngineContext, input: StepInput, loaded: LoadedOrder, sent: SentTransaction) {
  await writeRefund(ctx, input, loaded, {
    hash: sent.hash,
    minedAt: sent.minedAt,
    from: ctx.keys.relayer.address,
  });
}

/** Someone else called OriginSettler.refund: find their transaction (OrderRefunded) and record it. */
async function recordForeignRefund(ctx: EngineContext, input: StepInput, loaded: LoadedOrder) {
  const { client, config } = ctx.chain(loaded.originChainId);
  const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
  const logs = await withChainErrors(() =>
    client.getLogs({
      address: config.contracts.originSettler,
      event: getAbiItem({ abi: originSettlerAbi, name: 'OrderRefunded' }),
      args: { orderId: loaded.orderId },
      fromBlock: head > LOG_LOOKBACK_BLOCKS ? head - LOG_LOOKBACK_BLOCKS : 0n,
      toBlock: head,
    }),
  );
  const hash = logs.at(-1)?.transactionHash;
  if (!hash) return;
  const receipt = await receiptOf(client, hash);
  if (parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderRefunded', logs: receipt.logs }).length === 0)
    return;
  const block = await withChainErrors(() => client.getBlock({ blockNumber: receipt.blockNumber }));
  await writeRefund(ctx, input, loaded, {
    hash: hash as Hex,
    minedAt: new Date(Number(block.timestamp) * 1000),
    from: receipt.from,
  });
}

async function writeRefund(
  ctx: EngineContext,
  { intent }: StepInput,
  { order, originChainId }: LoadedOrder,
  tx: { hash: Hex; minedAt: Date; from: string },
): Promise<void> {
  const { config } = ctx.chain(originChainId);
  const rows = await ctx.store.transactions.list(intent.intentId);
  const dest = rows.find((r) => r.kind === 'destination');
  const why =
    dest?.status === 'FAILED' && dest.statusReason
      ? dest.statusReason
      : await noFillReason(ctx, intent.intentId);
  if (dest?.status !== 'FAILED' && dest?.status !== 'SUCCEEDED') {
    await writeRow(ctx.store, intent.intentId, 'destination', {
      chainId: Number(order.destChainId),
      status: 'FAILED',
      statusReason: `not filled: ${why}`,
    });
  }
  const returned = describeAmounts(config, [{ token: order.inputToken, amount: order.inputAmount }]);
  await writeRow(ctx.store, intent.intentId, 'refund', {
    chainId: config.chainId,
    status: 'SUCCEEDED',
    fromAddress: tx.from,
    toAddress: order.refundRecipient,
    tokenAddress: order.inputToken,
    tokenAmount: order.inputAmount,
    txnHash: tx.hash,
    minedAt: tx.minedAt,
    statusReason: `the order was never filled (${why}); the OriginSettler returned the locked ${returned} to the owner on ${config.name} after the grace period`,
  });
  ctx.log.info('order refunded', { intentId: intent.intentId, hash: tx.hash });
  await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'REFUNDED' });
}

/** "no fill before the fill deadline", with the fill step's last error when it has one (e.g. short inventory). */
async function noFillReason(ctx: EngineContext, intentId: string): Promise<string> {
  const fill = (await ctx.store.steps.list(intentId)).find((s) => s.step === 'fill');
  const last = fill?.lastError?.replace(/^waiting: /, '').replace(/^\w+Error: /, '');
  return `no fill before the fill deadline${last ? ` (last attempt: ${last})` : ''}`;
}
