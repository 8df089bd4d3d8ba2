/**
 * The order id, computed off-chain exactly as `IntentHash.orderId` does on-chain:
 * keccak256(abi.encode(orderData, originChainId, originSettler)).
 */
import { type Address, encodeAbiParameters, type Hex, keccak256 } from 'viem';
import { orderDataAbiParam } from './abi-params.ts';
import type { OrderData } from './types.ts';

export function computeOrderId(order: OrderData, originChainId: bigint, originSettler: Address): Hex {
  return keccak256(
    encodeAbiParameters(
      [orderDataAbiParam, { type: 'uint256' }, { type: 'address' }],
      [order, originChainId, originSettler],
    ),
  );
}
