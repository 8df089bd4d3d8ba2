/**
 * Checks a chain's copy of Switchyard against this build: every contract's runtime code matches its artifact
 * (immutables aside), and the immutables that link the contracts point at each other (the settler at the
 * verifier, the factory at the implementation and back). Used by `switchyard deploy` on contracts already
 * there and by `switchyard doctor` on the configured addresses.
 */
import { type Address, isAddressEqual, type PublicClient } from 'viem';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import { intentAccountAbi, intentFactoryAbi, originSettlerAbi } from './abis.generated.ts';
import { loadArtifact } from './artifacts.ts';
import { SWITCHYARD_ARTIFACTS } from './deployment-plan.ts';
import { matchesRuntimeCode } from './runtime-code.ts';

export interface CodeProblem {
  contract: keyof SwitchyardContracts;
  address: Address;
  /** No code at all (not deployed), other code than this build's, or an immutable pointing elsewhere. */
  kind: 'missing' | 'other-code' | 'link';
  /** What is wrong, in a phrase: `has no code`, `holds other code than this build's OriginSettler`, … */
  problem: string;
}

const NAMES = Object.keys(SWITCHYARD_ARTIFACTS) as (keyof SwitchyardContracts)[];

/** Code problems of one contract (none when it holds this build's code). */
export async function findContractCodeProblem(
  publicClient: PublicClient,
  contract: keyof SwitchyardContracts,
  address: Address,
): Promise<CodeProblem | undefined> {
  const code = await publicClient.getCode({ address });
  if (!code || code === '0x') return { contract, address, kind: 'missing', problem: 'has no code' };
  const artifact = SWITCHYARD_ARTIFACTS[contract];
  if (matchesRuntimeCode(loadArtifact(artifact), code)) return undefined;
  return { contract, address, kind: 'other-code', problem: `holds other code than this build's ${artifact}` };
}

export async function findCodeProblems(
  publicClient: PublicClient,
  contracts: SwitchyardContracts,
): Promise<CodeProblem[]> {
  const problems = (
    await Promise.all(NAMES.map((name) => findContractCodeProblem(publicClient, name, contracts[name])))
  ).filter((p) => p !== undefined);
  if (problems.length > 0) return problems;
  return findLinkProblems(publicClient, contracts);
}

async function findLinkProblems(publicClient: PublicClient, c: SwitchyardContracts): Promise<CodeProblem[]> {
  const [verifier, implementation, factory] = await Promise.all([
    publicClient.readContract({ address: c.originSettler, abi: originSettlerAbi, functionName: 'verifier' }),
    publicClient.readContract({
      address: c.intentFactory,
      abi: intentFactoryAbi,
      functionName: 'implementation',
    }),
    publicClient.readContract({
      address: c.intentAccountImplementation,
      abi: intentAccountAbi,
      functionName: 'factory',
    }),
  ]);
  const links: [keyof SwitchyardContracts, Address, Address, string][] = [
    ['originSettler', verifier, c.fillVerifier, 'verifier'],
    ['intentFactory', implementation, c.intentAccountImplementation, 'implementation'],
    ['intentAccountImplementation', factory, c.intentFactory, 'factory'],
  ];
  return links
    .filter(([, actual, expected]) => !isAddressEqual(actual, expected))
    .map(([contract, actual, expected, getter]) => ({
      contract,
      address: c[contract],
      kind: 'link' as const,
      problem: `its ${getter} is ${actual}, not ${expected}`,
    }));
}
