/** The order of a cross-chain intent, read back from the origin transaction's OrderOpened event. */
import type { Hex } from 'viem';
import { computeOrderId } from '../../contracts/order-id.ts';
import type { OrderData } from '../../contracts/types.ts';
import { openedOrder, receiptOf } from '../chain-reads.ts';
import type { EngineContext, StepInput } from '../context.ts';
import { UnexpectedOutcomeError } from '../errors.ts';

export interface LoadedOrder {
  order: OrderData;
  orderId: Hex;
  originChainId: bigint;
}

export async function loadOrder(ctx: EngineContext, { intent, plan }: StepInput): Promise<LoadedOrder> {
  const originChainId = plan.origin.intent.chainId;
  const loaded = (order: OrderData): LoadedOrder => ({
    order,
    orderId: computeOrderId(order, originChainId, ctx.chain(originChainId).config.contracts.originSettler),
    originChainId,
  });
  // Remembered by this process's origin step once it wrote the row SUCCEEDED: the rows need no read.
  const remembered = ctx.orders?.ofIntent(intent.intentId);
  if (remembered) return loaded(remembered);
  const rows = await ctx.store.transactions.list(intent.intentId);
  const origin = rows.find((r) => r.kind === 'origin');
  if (!origin?.txnHash || origin.status !== 'SUCCEEDED') {
    throw new UnexpectedOutcomeError('the origin transaction is not recorded as succeeded', {
      details: { intentId: intent.intentId, status: origin?.status },
    });
  }
  const { client } = ctx.chain(originChainId);
  return loaded(
    ctx.orders?.get(origin.txnHash) ?? openedOrder(await receiptOf(client, origin.txnHash as Hex)),
  );
}
