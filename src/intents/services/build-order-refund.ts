/**
 * BuildOIFRefundTransaction: the transaction that returns a cross-chain intent's locked order to its owner
 * when the solver never filled it: `OriginSettler.refund(order)` on the origin chain, which anyone may send
 * once the fill deadline plus the settler's grace has passed (docs/contracts.md, "Settlement"). The engine
 * sends the same refund itself; this lets an owner (or anyone) do it without waiting for the service.
 *
 * The answer says where the order stands, read on-chain: NOT_OPENED (the origin has not run), OPEN, FILLED (the
 * solver delivered and settlement is pending: a refund would take back what it paid, so it is never ready),
 * SETTLED or REFUNDED. `ready` is true only for an OPEN order whose refund time has passed on the origin
 * chain's clock; `refundableAt` is that time.
 */
import type { Address, Hex, PublicClient } from 'viem';
import { destinationSettlerAbi, originSettlerAbi } from '../../contracts/abis.generated.ts';
import { encodeOrderRefund } from '../../contracts/calldata.ts';
import { computeOrderId } from '../../contracts/order-id.ts';
import { FillStatus, type OrderData, OrderStatus } from '../../contracts/types.ts';
import { InvalidInputError } from '../../internal/errors.ts';
import { IntentNotFoundError, WrongStatusError } from '../errors.ts';
import { decodePlan } from '../plan-codec.ts';
import type { IntentServicesDeps } from './types.ts';

export type OrderRefundStatus = 'NOT_OPENED' | 'OPEN' | 'FILLED' | 'SETTLED' | 'REFUNDED';

export interface OrderRefundTransaction {
  intentId: string;
  orderId: Hex;
  to: Address;
  data: Hex;
  value: bigint;
  chainId: number;
  /** When the refund opens: the fill deadline plus the settler's grace (it needs a later block). */
  refundableAt: Date;
  ready: boolean;
  status: OrderRefundStatus;
}

const STATUS_NAMES: Record<number, OrderRefundStatus> = {
  [OrderStatus.None]: 'NOT_OPENED',
  [OrderStatus.Open]: 'OPEN',
  [OrderStatus.Settled]: 'SETTLED',
  [OrderStatus.Refunded]: 'REFUNDED',
};

export function createBuildOrderRefund(deps: IntentServicesDeps) {
  const client = (chainId: number): PublicClient => {
    const found = deps.clients.get(chainId);
    if (!found) throw new Error(`no RPC client for configured chain ${chainId}`);
    return found;
  };
  return async (rawId: string, projectId: number): Promise<OrderRefundTransaction> => {
    const intentId = rawId.toLowerCase();
    const record = await deps.store.intents.get({ projectId, intentId });
    if (!record) throw new IntentNotFoundError(rawId);
    if (!record.planJson) {
      throw new WrongStatusError(`intent ${record.intentId} has no stored plan`, record.status);
    }
    const { order } = decodePlan(record.planJson);
    if (!order) {
      throw new InvalidInputError(
        'intentId',
        `intent ${record.intentId} runs on one chain: it locks no order; what its address holds is returned by the intent account's refund`,
      );
    }
    const originChainId = record.originChainId;
    const origin = deps.chains.find((c) => c.chainId === originChainId)!;
    const settler = origin.contracts.originSettler;
    const orderId = computeOrderId(order, BigInt(originChainId), settler);
    const reader = client(originChainId);
    const [onChain, grace, block] = await Promise.all([
      reader.readContract({
        address: settler,
        abi: originSettlerAbi,
        functionName: 'orderStatus',
        args: [orderId],
      }),
      reader.readContract({ address: settler, abi: originSettlerAbi, functionName: 'grace' }),
      reader.getBlock({ blockTag: 'latest' }),
    ]);
    const refundableAfter = order.fillDeadline + grace;
    let status = STATUS_NAMES[onChain] ?? 'NOT_OPENED';
    if (status === 'OPEN' && (await filled(client(Number(order.destChainId)), order, orderId)))
      status = 'FILLED';
    return {
      intentId: record.intentId,
      orderId,
      to: settler,
      data: encodeOrderRefund(order),
      value: 0n,
      chainId: originChainId,
      // The settler refunds only strictly after refundableAfter: a block one second later at the earliest.
      refundableAt: new Date(Number(refundableAfter + 1n) * 1000),
      ready: status === 'OPEN' && block.timestamp > refundableAfter,
      status,
    };
  };
}

async function filled(destination: PublicClient, order: OrderData, orderId: Hex): Promise<boolean> {
  const status = await destination.readContract({
    address: order.destSettler,
    abi: destinationSettlerAbi,
    functionName: 'fillStatus',
    args: [orderId],
  });
  return status === FillStatus.Filled;
}
