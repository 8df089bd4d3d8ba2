/**
 * The intent hash, computed off-chain exactly as `IntentHash.hashIntent` does on-chain:
 * keccak256(abi.encode(keccak256("Switchyard.Intent.v1"), factory, intent)).
 */
import { type Address, encodeAbiParameters, type Hex, hexToNumber, padHex, toBytes } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';
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

/** Hex characters of the 4-byte selector after the 0x prefix. */
const SELECTOR_HEX = 8;
/** Hex characters of one ABI word. */
const WORD_HEX = 64;
/** Offset of the intent in `abi.encode(tag, factory, intent)`: after three head words. */
const HASH_INTENT_OFFSET = padHex('0x60', { size: 32 }).slice(2);

/**
 * The same hash as hashIntent, taken from calldata that already encodes the intent as its first parameter
 * followed by one dynamic parameter (`deployIfNeededAndExecute(intent, authData)`), so a quote encodes each
 * intent once. A dynamic tuple's encoding does not depend on where it sits, so the intent's bytes in that
 * calldata are the bytes the hash preimage ends with; only the head words differ.
 */
export function hashIntentFromCalldata(calldata: Hex, factory: Address): Hex {
  const heads = 2 + SELECTOR_HEX;
  const intentStart = heads + 2 * hexToNumber(`0x${calldata.slice(heads, heads + WORD_HEX)}`);
  const intentEnd = heads + 2 * hexToNumber(`0x${calldata.slice(heads + WORD_HEX, heads + 2 * WORD_HEX)}`);
  const encodedIntent = calldata.slice(intentStart, intentEnd);
  const factoryWord = padHex(factory.toLowerCase() as Hex, { size: 32 }).slice(2);
  return keccak256(`${INTENT_TAG}${factoryWord}${HASH_INTENT_OFFSET}${encodedIntent}`);
}
