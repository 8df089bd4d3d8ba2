/**
 * The process `switchyard start` runs (test/harness/app.ts) on a devnet, for the yield tests. Yield methods
 * are not in the 0.9.4 client, so they are called with plain fetch on either prefix (`Trails`, `Service`).
 */
import { type Address, parseAbi } from 'viem';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { startTestService, type TestService } from '../harness/app.ts';
import type { TestDevnet, TestDevnetChain } from '../harness/devnet.ts';

export const vaultReadAbi = parseAbi([
  'function totalAssets() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function yieldPerSecond() view returns (uint256)',
]);

/** `holder`'s shares of the ERC-4626 `vault`. */
export function sharesOf(chain: TestDevnetChain, vault: Address, holder: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: vault,
    abi: vaultReadAbi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

/** What `shares` of the ERC-4626 `vault` are worth in its asset now. */
export function assetsFor(chain: TestDevnetChain, vault: Address, shares: bigint): Promise<bigint> {
  return chain.publicClient.readContract({
    address: vault,
    abi: vaultReadAbi,
    functionName: 'convertToAssets',
    args: [shares],
  });
}

export type YieldServer = TestService;

/** No yield call executes an intent: the engine is a test double, so no workers run beside the tests. */
export function startYieldServer(net: TestDevnet): Promise<YieldServer> {
  return startTestService({
    chains: net.chainConfigs,
    operator: devnetOperator(net.devnet),
    engine: { requestExecution: async () => undefined },
    rateLimit: false,
  });
}

export type Prefix = 'Trails' | 'Service';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response JSON
export type Json = { [key: string]: any };

export async function rpc(
  server: Pick<YieldServer, 'url' | 'key'>,
  method: string,
  body: unknown,
  prefix: Prefix = 'Trails',
) {
  const response = await fetch(`${server.url}/rpc/${prefix}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': server.key },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

/** Moves the chain's clock forward and mines a block at the new time. */
export async function warp(chain: TestDevnetChain, seconds: number): Promise<void> {
  await chain.testClient.increaseTime({ seconds });
  await chain.testClient.mine({ blocks: 1 });
}

export function vaultsOf(net: TestDevnet): { chain: TestDevnetChain; name: string; vault: Address }[] {
  return net.chains.flatMap((chain) =>
    Object.entries(chain.entry.contracts)
      .filter(([name]) => name.endsWith('Vault'))
      .map(([name, vault]) => ({ chain, name, vault: vault as Address })),
  );
}
