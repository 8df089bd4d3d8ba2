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
  const rows = await ctx.store.transactions.list(intent.intentId);
  const origin = rows.find((r) => r.kind === 'origin');
  if (!origin?.txnHash || origin.status !== 'SUCCEEDED') {
    throw new UnexpectedOutcomeError('the origin transaction is not recorded as succeeded', {
      details: { intentId: intent.intentId, status: origin?.status },
    });
  }
  const originChainId = plan.origin.intent.chainId;
  const { client, config } = ctx.chain(originChainId);
  const order =
    ctx.orders?.get(origin.txnHash) ?? openedOrder(await receiptOf(client, origin.txnHash as Hex));
  return {
    order,
    orderId: computeOrderId(order, originChainId, config.contracts.originSettler),
    originChainId,
  };
}
