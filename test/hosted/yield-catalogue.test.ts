/**
 * The yield catalogue through HTTP on both prefixes, from the live registry of the devnet's four vaults:
 * YieldGetProviders / YieldGetProvider (the one provider the devnet's vaults name, its TVL the sum of the
 * markets' read on-chain), YieldGetNetworks (the three chains), YieldGetMarketById (the same market as
 * YieldGetMarkets lists), and GetEarnPools (the same markets, filtered by chain, protocol, TVL and APY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import {
  type Json,
  type Prefix,
  rpc,
  startYieldServer,
  vaultsOf,
  type YieldServer,
} from '../yield/support.ts';

let net: TestDevnet;
let server: YieldServer;
let listing: Json[];

async function call(method: string, body: Json, prefix: Prefix = 'Trails'): Promise<Json> {
  const { status, json } = await rpc(server, method, body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

beforeAll(async () => {
  net = await startTestDevnet();
  server = await startYieldServer(net);
  listing = (await call('YieldGetMarkets', {})).items;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await net?.stop();
});

describe('YieldGetProviders and YieldGetProvider', () => {
  it('list the one provider the devnet vaults name, with its markets, chains and total TVL', async () => {
    for (const prefix of ['Trails', 'Service'] as const) {
      const page = await call('YieldGetProviders', {}, prefix);
      expect(page).toMatchObject({ total: 1, offset: 0, limit: 100 });
      const [provider] = page.items;
      expect(provider).toMatchObject({
        id: 'erc4626',
        name: 'ERC-4626 vaults',
        type: 'protocol',
        supportsBeneficiary: true,
        chainIds: net.chains.map((c) => String(c.entry.chainId)),
      });
      expect(new Set(provider.marketIds)).toEqual(new Set(listing.map((m) => m.id)));
      const tvl = sum(listing.map((m) => m.statistics.tvlUsd as number));
      expect(provider.tvlUsd).toBeCloseTo(tvl, 2);
      expect((await call('YieldGetProvider', { providerId: 'ERC4626' }, prefix)).provider.id).toBe('erc4626');
    }
    expect((await call('YieldGetProviders', { offset: 1 })).items).toEqual([]);
  });

  it('answer NotFound for an unknown provider and InvalidArgument for a bad page', async () => {
    const unknown = await rpc(server, 'YieldGetProvider', { providerId: 'aave' });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      error: 'NotFound',
      code: 8000,
      msg: "providerId: no yield provider 'aave'; list them with YieldGetProviders",
    });
    const page = await rpc(server, 'YieldGetProviders', { limit: 0 });
    expect(page.json).toMatchObject({ code: 2000, cause: 'field=limit' });
  });
});

describe('YieldGetNetworks', () => {
  it('lists the chains that have markets, by the name markets carry as network', async () => {
    for (const prefix of ['Trails', 'Service'] as const) {
      const { networks } = await call('YieldGetNetworks', {}, prefix);
      expect(networks).toEqual(
        net.chains.map((c) => ({
          id: c.entry.name,
          name: c.entry.name,
          category: 'evm',
          logoURI: '',
          chainId: String(c.entry.chainId),
        })),
      );
      expect(new Set(listing.map((m) => m.network))).toEqual(new Set(networks.map((n: Json) => n.id)));
    }
  });
});

describe('YieldGetMarketById', () => {
  it('answers the market YieldGetMarkets lists, in any letter case of its id', async () => {
    for (const listed of listing) {
      const { market } = await call('YieldGetMarketById', { marketId: listed.id.toUpperCase() }, 'Service');
      expect(market.id).toBe(listed.id);
      expect(market.address).toBe(listed.address);
      expect(market.token).toEqual(listed.token);
      expect(market.rewardRate.rateType).toBe('APY');
      // Read again at a later block: the vault only grows.
      expect(BigInt(market.statistics.totalAssets)).toBeGreaterThanOrEqual(
        BigInt(listed.statistics.totalAssets),
      );
    }
    const unknown = await rpc(server, 'YieldGetMarketById', { marketId: 'acme-1-0x01' });
    expect(unknown.json).toMatchObject({
      error: 'NotFound',
      msg: "marketId: no yield market 'acme-1-0x01'; list them with YieldGetMarkets",
    });
  });
});

describe('GetEarnPools', () => {
  it('lists the same markets as pools: vault, token, TVL and APY as YieldGetMarkets reads them', async () => {
    const answer = await call('GetEarnPools', {});
    expect(answer.cached).toBe(false);
    expect(Number.isNaN(Date.parse(answer.timestamp))).toBe(false);
    expect(answer.pools.map((p: Json) => p.id)).toEqual(listing.map((m) => m.id));
    for (const pool of answer.pools as Json[]) {
      const market = listing.find((m) => m.id === pool.id)!;
      expect(pool).toMatchObject({
        name: market.metadata.name,
        protocol: 'erc4626',
        chainId: Number(market.chainId),
        depositAddress: market.address,
        isActive: true,
        token: {
          symbol: market.token.symbol,
          address: market.token.address,
          decimals: market.token.decimals,
          name: market.token.name,
        },
      });
      expect(pool.tvl).toBeGreaterThan(0);
      expect(pool.tvl).toBeCloseTo(market.statistics.tvlUsd, -2);
      expect(pool.apy).toBeGreaterThanOrEqual(0);
    }
  });

  it('filters by chain ids, protocols, least TVL and most APY', async () => {
    const [, beta, gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
    const ids = async (body: Json, prefix: Prefix = 'Trails') =>
      ((await call('GetEarnPools', body, prefix)).pools as Json[]).map((p) => p.id as string);
    const onChain = (chain: TestDevnetChain) =>
      vaultsOf(net)
        .filter((v) => v.chain === chain)
        .map((v) => `erc4626-${chain.entry.chainId}-${v.vault.toLowerCase()}`);
    expect(new Set(await ids({ chainIds: [gamma.entry.chainId] }, 'Service'))).toEqual(
      new Set(onChain(gamma)),
    );
    expect(await ids({ chainIds: [beta.entry.chainId, 1] })).toEqual(onChain(beta));
    expect(await ids({ protocols: ['ERC4626'] })).toHaveLength(4);
    expect(await ids({ protocols: ['aave'] })).toEqual([]);
    const tvls = listing.map((m) => m.statistics.tvlUsd as number).sort((a, b) => a - b);
    expect(await ids({ minTvl: tvls[3]! + 1 })).toEqual([]);
    expect(await ids({ minTvl: 0 })).toHaveLength(4);
    expect(await ids({ maxApy: -1 })).toEqual([]);
    expect(await ids({ maxApy: 10 })).toHaveLength(4);
    const bad = await rpc(server, 'GetEarnPools', { minTvl: 'lots' });
    expect(bad.json).toMatchObject({ code: 2000, cause: 'field=minTvl' });
  });
});
