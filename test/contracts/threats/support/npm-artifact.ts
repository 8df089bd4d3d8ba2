/**
 * Deploys a contract from an npm package's build artifact as shipped (e.g. Uniswap's test tokens).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Abi, type Address, encodeDeployData, type Hex } from 'viem';
import { POLLING_INTERVAL_MS, type TestChain } from '../../../harness/chain.ts';

interface NpmArtifact {
  abi: Abi;
  /** Waffle-style artifacts store the creation code without the 0x prefix. */
  bytecode: string;
}

export function loadNpmArtifact(specifier: string): { abi: Abi; bytecode: Hex } {
  const file = createRequire(import.meta.url).resolve(specifier);
  const artifact = JSON.parse(readFileSync(file, 'utf8')) as NpmArtifact;
  const bytecode = (artifact.bytecode.startsWith('0x') ? artifact.bytecode : `0x${artifact.bytecode}`) as Hex;
  return { abi: artifact.abi, bytecode };
}

/** Deploys the artifact from the chain's deployer; returns the new contract's address. */
export async function deployNpmArtifact(
  chain: TestChain,
  specifier: string,
  args: readonly unknown[] = [],
): Promise<Address> {
  const { abi, bytecode } = loadNpmArtifact(specifier);
  const hash = await chain.wallets.deployer.sendTransaction({
    data: encodeDeployData({ abi, bytecode, args }),
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({
    hash,
    pollingInterval: POLLING_INTERVAL_MS,
  });
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`deploying ${specifier} failed`);
  return receipt.contractAddress;
}
