/**
 * Whether code read from a chain is a build's runtime code: equal byte for byte except where the constructor
 * wrote immutables (addresses, the grace period, an EIP-712 domain cached for the chain), which differ per
 * deployment and are checked through the contracts' getters instead.
 */
import { type Hex, hexToBytes } from 'viem';
import type { ContractArtifact } from './artifacts.ts';

export function matchesRuntimeCode(
  artifact: Pick<ContractArtifact, 'deployedBytecode' | 'immutableReferences'>,
  onChain: Hex | undefined,
): boolean {
  if (!onChain || onChain === '0x') return false;
  const expected = hexToBytes(artifact.deployedBytecode);
  const actual = hexToBytes(onChain);
  if (expected.length !== actual.length) return false;
  for (const ranges of Object.values(artifact.immutableReferences)) {
    for (const { start, length } of ranges) actual.fill(0, start, start + length);
  }
  return expected.every((byte, i) => byte === actual[i]);
}
