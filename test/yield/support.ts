/**
 * A devnet with the real API in front of it and the yield service wired in, for the yield tests. Yield methods
 * are not in the 0.9.4 client, so they are called with plain fetch on either prefix (`Trails`, `Service`).
 */
import { type Address, parseAbi } from 'viem';
import { type ApiServer, createApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createPriceSource, type PriceSource } from '../../src/pricing/index.ts';
import { createYieldService, type YieldService } from '../../src/yield/index.ts';
import type { TestDevnet, TestDevnetChain } from '../harness/devnet.ts';

export const KEY = 'sy_yield_test_key';

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

export interface YieldServer {
  server: ApiServer;
  url: string;
  prices: PriceSource;
  yieldService: YieldService;
}

export async function startYieldServer(net: TestDevnet): Promise<YieldServer> {
  const log = createSilentLogger();
  const prices = createPriceSource({ chains: net.chainConfigs, log });
  const yieldService = createYieldService({ chains: net.chainConfigs, prices, log });
  const server = await createApiServer({
    chains: net.chainConfigs,
    yield: yieldService,
    prices,
    log,
    resolveAccessKey: (key) => (key === KEY ? { projectId: 1 } : undefined),
    rateLimit: false,
  });
  const url = await server.listen(0, '127.0.0.1');
  return { server, url, prices, yieldService };
}

export type Prefix = 'Trails' | 'Service';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response JSON
export type Json = { [key: string]: any };

export async function rpc(url: string, method: string, body: unknown, prefix: Prefix = 'Trails') {
  const response = await fetch(`${url}/rpc/${prefix}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': KEY },
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
