/**
 * The address of an intent account, computed off-chain. It reproduces OpenZeppelin 5's
 * `Clones.predictDeterministicAddressWithImmutableArgs(implementation, abi.encodePacked(intentHash), intentHash,
 * factory)`: CREATE2(factory, salt = intentHash, initcode = clone-with-immutable-args code).
 */
import { type Address, concat, type Hex, numberToHex } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';

/** The EIP-1167 proxy runtime is 45 bytes; the immutable args follow it. */
const CLONE_RUNTIME_BYTES = 0x2d;
/** Intent hash: one 32-byte word of immutable args. */
const INTENT_HASH_BYTES = 32;
/** Hex characters of an address after the 0x prefix. */
const ADDRESS_HEX = 40;
/** Hex characters of a keccak256 digest (with 0x) before the 20 address bytes CREATE2 keeps. */
const CREATE2_ADDRESS_START = 2 + 2 * 12;

/** The initcode OZ's `_cloneCodeWithImmutableArgs(implementation, args)` builds. */
export function cloneInitCode(implementation: Address, args: Hex): Hex {
  const argsBytes = (args.length - 2) / 2;
  return concat([
    '0x61',
    numberToHex(argsBytes + CLONE_RUNTIME_BYTES, { size: 2 }),
    '0x3d81600a3d39f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
    args,
  ]);
}

export function predictIntentAddress(params: {
  factory: Address;
  implementation: Address;
  intentHash: Hex;
}): Address {
  if ((params.intentHash.length - 2) / 2 !== INTENT_HASH_BYTES) {
    throw new RangeError(`intentHash must be 32 bytes, got ${params.intentHash}`);
  }
  if (params.factory.length !== 2 + ADDRESS_HEX) throw new RangeError(`factory must be an address`);
  // CREATE2 (EIP-1014): keccak256(0xff ++ factory ++ salt ++ keccak256(initcode))[12:], EIP-55 checksummed.
  // viem's getContractAddress computes the same with its own (several times slower) keccak: a quote predicts
  // one or two addresses, so this is on its hot path.
  const initCodeHash = keccak256(cloneInitCode(params.implementation, params.intentHash));
  const digest = keccak256(
    `0xff${params.factory.slice(2)}${params.intentHash.slice(2)}${initCodeHash.slice(2)}`,
  );
  return checksumAddress(digest.slice(CREATE2_ADDRESS_START));
}

/** EIP-55: a letter is upper case where the keccak256 of the lower-case hex address has a nibble ≥ 8. */
function checksumAddress(lowerHex: string): Address {
  const hash = keccak256(new TextEncoder().encode(lowerHex));
  let out = '0x';
  for (let i = 0; i < ADDRESS_HEX; i++) {
    const char = lowerHex[i]!;
    out += Number.parseInt(hash[2 + i]!, 16) >= 8 ? char.toUpperCase() : char;
  }
  return out as Address;
}
