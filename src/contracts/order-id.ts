/**
 * The order id, computed off-chain exactly as `IntentHash.orderId` does on-chain:
 * keccak256(abi.encode(orderData, originChainId, originSettler)).
 *
 * The encoding is compiled once (src/providers/calldata-encoder.ts) and hashed with our keccak256; the engine
 * computes it in the fill, settle and order-refund steps of every intent. order-id.test.ts compares it with
 * viem's encodeAbiParameters and keccak256.
 */
import type { Address, Hex } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';
import { createCalldataEncoder } from '../providers/calldata-encoder.ts';
import { orderDataAbiParam } from './abi-params.ts';
import type { OrderData } from './types.ts';

/** abi.encode(order, uint256, address): a function's arguments without its selector. */
const orderIdArguments = createCalldataEncoder(
  [
    {
      type: 'function',
      name: 'orderId',
      inputs: [
        orderDataAbiParam,
        { name: 'originChainId', type: 'uint256' },
        { name: 'originSettler', type: 'address' },
      ],
      outputs: [],
      stateMutability: 'pure',
    },
  ],
  'orderId',
);
/** Hex characters of '0x' and a 4-byte selector. */
const SELECTOR_HEX = 10;

export function computeOrderId(order: OrderData, originChainId: bigint, originSettler: Address): Hex {
  return keccak256(`0x${orderIdArguments([order, originChainId, originSettler]).slice(SELECTOR_HEX)}`);
}
