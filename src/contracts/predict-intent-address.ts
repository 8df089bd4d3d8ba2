/**
 * The address of an intent account, computed off-chain. It reproduces OpenZeppelin 5's
 * `Clones.predictDeterministicAddressWithImmutableArgs(implementation, abi.encodePacked(intentHash), intentHash,
 * factory)`: CREATE2(factory, salt = intentHash, initcode = clone-with-immutable-args code).
 */
import { type Address, concat, getContractAddress, type Hex, numberToHex } from 'viem';

/** The EIP-1167 proxy runtime is 45 bytes; the immutable args follow it. */
const CLONE_RUNTIME_BYTES = 0x2d;
/** Intent hash: one 32-byte word of immutable args. */
const INTENT_HASH_BYTES = 32;

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
  return getContractAddress({
    opcode: 'CREATE2',
    from: params.factory,
    salt: params.intentHash,
    bytecode: cloneInitCode(params.implementation, params.intentHash),
  });
}
