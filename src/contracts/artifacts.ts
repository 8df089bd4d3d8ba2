/**
 * Reads the compiled artifacts that `scripts/build-contracts.ts` writes to `build/contracts/`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';
import { SwitchyardError } from '../internal/errors.ts';

const BUILD_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'build',
  'contracts',
);

export interface ContractArtifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  /**
   * Byte ranges of the runtime code that the constructor fills with immutables, per solc AST id: zeros in
   * `deployedBytecode`, a chain- and argument-dependent value on-chain.
   */
  immutableReferences: Record<string, { start: number; length: number }[]>;
}

/** An artifact is missing: the contracts have not been built. */
export class ArtifactNotFoundError extends SwitchyardError {
  override readonly name = 'ArtifactNotFoundError';
}

/** Loads `build/contracts/<name>.json`; run `npm run build:contracts` first (npm test/start do). */
export function loadArtifact(name: string): ContractArtifact {
  const file = path.join(BUILD_DIR, `${name}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ContractArtifact;
  } catch (cause) {
    throw new ArtifactNotFoundError(`contract artifact ${name} not found; run npm run build:contracts`, {
      details: { name, file },
      cause,
    });
  }
}
