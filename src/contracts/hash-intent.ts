/**
 * The intent hash, computed off-chain exactly as `IntentHash.hashIntent` does on-chain:
 * keccak256(abi.encode(keccak256("Switchyard.Intent.v1"), factory, intent)).
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, toBytes } from 'viem';
import { intentAbiParam } from './abi-params.ts';
import type { Intent } from './types.ts';

/** Type and version tag of the intent hash (contracts/libraries/IntentHash.sol INTENT_TAG). */
export const INTENT_TAG: Hex = keccak256(toBytes('Switchyard.Intent.v1'));

export function hashIntent(intent: Intent, factory: Address): Hex {
  const encoded = encodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'address' }, intentAbiParam],
    [INTENT_TAG, factory, intent],
  );
  return keccak256(encoded);
}
