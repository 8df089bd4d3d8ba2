/**
 * YieldGetMarkets and YieldCreateEnterAction against the devnet's four AccruingVaults (alpha USDC, beta DAI,
 * gamma USDC and DAI), through the real HTTP API on both prefixes: live values read on-chain, the reward rate
 * after warping the chains, TVL against the served prices, every filter, sort and page, and the enter action's
 * transactions sent by the devnet user.
 */
import { type Address, decodeFunctionData, erc20Abi, formatUnits, type Hex, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createYieldHandlers } from '../../src/api/methods/yield/index.ts';
import { DEVNET_CHAINS } from '../../src/devnet/constants.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createYieldService } from '../../src/yield/index.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import {
  assetsFor,
  type Json,
  type Prefix,
  rpc,
  sharesOf,
  startYieldServer,
  vaultReadAbi,
  vaultsOf,
  warp,
  type YieldServer,
} from './support.ts';

const SECONDS_PER_YEAR = 31_536_000;
/** Time the chains are moved forward between the first listing and the rate checks: 30 days. */
const WARP_SECONDS = 30 * 24 * 3600;
/**
 * Relative tolerance between the served rate and the one computed here from the vault's own `yieldPerSecond`
 * and `totalAssets`: the reference sample is a block or two before the totalAssets the test read, which
 * differs by ~1e-9 of the assets per second; convertToAssets' virtual share/asset (+1) adds ~1e-11.
 */
const RATE_TOLERANCE_ON_CHAIN = 1e-6;
/**
 * Relative tolerance against the configured APY (DEVNET_CHAINS apyBps): the vault's yieldPerSecond is that
 * APY on the seed deposit rounded down to whole base units per second, which for USDC (≈159 units/s at 5 %)
 * loses up to 0.7 %.
 */
const RATE_TOLERANCE_CONFIGURED = 0.01;

let net: TestDevnet;
let yieldServer: YieldServer;
let user: Address;
/** Per market id: totalAssets and yieldPerSecond just after the first listing, before the warp. */
const before = new Map<string, { totalAssets: bigint; yieldPerSecond: bigint }>();
let firstListing: Json;

const idOf = (chain: TestDevnetChain, vault: Address) =>
  `erc4626-${chain.entry.chainId}-${vault.toLowerCase()}`;
const fresh = (): Address => privateKeyToAddress(generatePrivateKey());
const markets = async (body: Json = {}, prefix: Prefix = 'Trails') => {
  const { status, json } = await rpc(yieldServer, 'YieldGetMarkets', body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
};
const ids = (list: Json[]) => list.map((m) => m.id as string);

beforeAll(async () => {
  net = await startTestDevnet();
  yieldServer = await startYieldServer(net);
  user = net.devnet.accounts.user.address;
  firstListing = await markets();
  for (const { chain, vault } of vaultsOf(net)) {
    const read = (functionName: 'totalAssets' | 'yieldPerSecond') =>
      chain.publicClient.readContract({ address: vault, abi: vaultReadAbi, functionName });
    before.set(idOf(chain, vault), {
      totalAssets: await read('totalAssets'),
      yieldPerSecond: await read('yieldPerSecond'),
    });
  }
  for (const chain of net.chains) await warp(chain, WARP_SECONDS);
}, 120_000);

afterAll(async () => {
  await yieldServer?.stop();
  await net?.stop();
});

describe('YieldGetMarkets', () => {
  it('lists every devnet vault on both prefixes, with metadata and totals read on-chain', async () => {
    const expected = vaultsOf(net).map(({ chain, vault }) => idOf(chain, vault));
    expect(expected).toHaveLength(4);
    for (const prefix of ['Trails', 'Service'] as const) {
      const listing = await markets({}, prefix);
      expect(listing.total).toBe(4);
      expect(listing.offset).toBe(0);
      expect(listing.limit).toBe(100);
      expect(Array.isArray(listing.payload)).toBe(true);
      expect(new Set(ids(listing.items))).toEqual(new Set(expected));
      expect(ids(listing.payload)).toEqual(ids(listing.items));
    }
    const listing = await markets();
    for (const { chain, name, vault } of vaultsOf(net)) {
      const item = listing.items.find((m: Json) => m.id === idOf(chain, vault));
      const symbol = name === 'usdcVault' ? 'USDC' : 'DAI';
      expect(item.providerId).toBe('erc4626');
      expect(item.chainId).toBe(String(chain.entry.chainId));
      expect(item.network).toBe(chain.entry.name);
      expect(item.mechanics.type).toBe('vault');
      expect(item.status).toEqual({ enter: true, exit: true });
      expect(item.metadata.name).toBe(`Switchyard ${symbol} Vault`);
      expect(item.metadata.token).toMatchObject({
        symbol,
        address: chain.entry.tokens[symbol],
        decimals: symbol === 'USDC' ? 6 : 18,
      });
      expect(item.inputTokens).toEqual([item.metadata.token]);
      const onChain = await chain.publicClient.readContract({
        address: vault,
        abi: vaultReadAbi,
        functionName: 'totalAssets',
        blockNumber: BigInt(item.statistics.blockNumber),
      });
      expect(item.statistics.totalAssets).toBe(onChain.toString());
    }
  });

  it('measures rewardRate from the share price growth over the warped month: > 0 and equal to the vault yield', async () => {
    const listing = await markets();
    expect(firstListing.total).toBe(4);
    for (const [i, item] of listing.items.entries()) {
      const spec = listing.payload[i];
      const { totalAssets, yieldPerSecond } = before.get(item.id)!;
      const window = item.rewardRate.windowSeconds as number;
      expect(window).toBeGreaterThanOrEqual(WARP_SECONDS);
      // The vault releases yieldPerSecond into totalAssets: the price grows by that share of the assets.
      const growth = Number(yieldPerSecond * BigInt(window)) / Number(totalAssets);
      const expected = (1 + growth) ** (SECONDS_PER_YEAR / window) - 1;
      expect(item.rewardRate.total).toBeGreaterThan(0);
      expect(Math.abs(item.rewardRate.total / expected - 1)).toBeLessThan(RATE_TOLERANCE_ON_CHAIN);
      expect(spec.rewardRate).toBe(item.rewardRate.total);
      expect(spec.rewardRateDetails.total).toBe(item.rewardRate.total);

      const chainSpec = DEVNET_CHAINS.find((c) => String(c.chainId) === item.chainId)!;
      const apyBps = chainSpec.vaults.find((v) => v.asset === item.metadata.token.symbol)!.apyBps;
      const configured =
        (1 + ((apyBps / 10_000) * window) / SECONDS_PER_YEAR) ** (SECONDS_PER_YEAR / window) - 1;
      expect(Math.abs(item.rewardRate.total / configured - 1)).toBeLessThan(RATE_TOLERANCE_CONFIGURED);
    }
  });

  it('values statistics.tvlUsd at totalAssets × the price GetTokenPrices serves', async () => {
    const listing = await markets();
    for (const item of listing.items) {
      const token = item.metadata.token;
      const { json } = await rpc(yieldServer, 'GetTokenPrices', {
        tokens: [{ chainId: Number(item.chainId), tokenAddress: token.address }],
      });
      const price = json.tokenPrices[0].priceUsd as number;
      expect(price).toBeGreaterThan(0);
      if (token.symbol === 'USDC') expect(price).toBe(1);
      const assets = Number(formatUnits(BigInt(item.statistics.totalAssets), token.decimals));
      expect(item.statistics.tvlUsd).toBeCloseTo(assets * price, 6);
      expect(item.statistics.tvlUsd).toBeGreaterThan(100_000 * 0.99);
    }
  });

  it('filters by provider, chainId, type and search', async () => {
    const [alpha, beta, gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
    const all = vaultsOf(net);
    const id = (chain: TestDevnetChain, name: string) => idOf(chain, chain.entry.contracts[name] as Address);
    const set = async (body: Json) => new Set(ids((await markets(body)).items));

    expect((await markets({ provider: 'erc4626' })).total).toBe(4);
    expect((await markets({ provider: 'ERC4626' })).total).toBe(4);
    expect((await markets({ provider: 'aave' })).total).toBe(0);
    expect(await set({ chainId: String(gamma.entry.chainId) })).toEqual(
      new Set([id(gamma, 'usdcVault'), id(gamma, 'daiVault')]),
    );
    expect(await set({ chainId: String(beta.entry.chainId) })).toEqual(new Set([id(beta, 'daiVault')]));
    expect((await markets({ chainId: '1' })).total).toBe(0);
    expect((await markets({ type: 'vault' })).total).toBe(4);
    expect((await markets({ type: 'lending' })).total).toBe(0);
    expect(await set({ search: 'dai' })).toEqual(new Set([id(beta, 'daiVault'), id(gamma, 'daiVault')]));
    expect(await set({ search: 'USDC Vault' })).toEqual(
      new Set([id(alpha, 'usdcVault'), id(gamma, 'usdcVault')]),
    );
    // The devnet deploys its tokens at the same address on every chain: the address finds both USDC vaults.
    expect(alpha.entry.tokens.USDC).toBe(gamma.entry.tokens.USDC);
    expect(await set({ search: gamma.entry.tokens.USDC!.toLowerCase() })).toEqual(
      new Set([id(alpha, 'usdcVault'), id(gamma, 'usdcVault')]),
    );
    expect(await set({ search: alpha.entry.contracts.usdcVault })).toEqual(new Set([id(alpha, 'usdcVault')]));
    expect((await markets({ search: 'no such market' })).total).toBe(0);
    expect(
      await set({ chainId: String(gamma.entry.chainId), type: 'vault', provider: 'erc4626', search: 'usdc' }),
    ).toEqual(new Set([id(gamma, 'usdcVault')]));
    expect(all).toHaveLength(4);
  });

  it('sorts by rewardRate both ways and pages with offset and limit', async () => {
    const desc = (await markets({ sort: 'rewardRateDesc' })).items as Json[];
    const rates = desc.map((m) => m.rewardRate.total as number);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    // The devnet's configured yields: gamma USDC 8 %, alpha USDC 5 %, beta DAI 4 %, gamma DAI 3 %.
    const [alpha, beta, gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
    expect(ids(desc)).toEqual([
      idOf(gamma, gamma.entry.contracts.usdcVault as Address),
      idOf(alpha, alpha.entry.contracts.usdcVault as Address),
      idOf(beta, beta.entry.contracts.daiVault as Address),
      idOf(gamma, gamma.entry.contracts.daiVault as Address),
    ]);
    const asc = (await markets({ sort: 'rewardRateAsc' })).items as Json[];
    expect(ids(asc)).toEqual(ids(desc).reverse());

    const pages: string[] = [];
    for (const offset of [0, 2, 4]) {
      const page = await markets({ sort: 'rewardRateDesc', limit: 2, offset }, 'Service');
      expect(page.total).toBe(4);
      expect(page.limit).toBe(2);
      expect(page.offset).toBe(offset);
      expect(ids(page.payload)).toEqual(ids(page.items));
      pages.push(...ids(page.items));
      expect(page.items).toHaveLength(offset < 4 ? 2 : 0);
    }
    expect(pages).toEqual(ids(desc));
    expect(ids((await markets({ sort: 'rewardRateDesc', limit: 3, offset: 1 })).items)).toEqual(
      ids(desc).slice(1, 4),
    );
  });

  it('rejects a bad chainId, type, sort, limit or offset with InvalidArgument naming the field', async () => {
    const cases: [Json, string][] = [
      [{ chainId: 'alpha' }, 'chainId'],
      [{ chainId: '-1' }, 'chainId'],
      [{ type: 'staking' }, 'type'],
      [{ sort: 'tvlAsc' }, 'sort'],
      [{ limit: 0 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ offset: 1.5 }, 'offset'],
    ];
    for (const [body, field] of cases) {
      for (const prefix of ['Trails', 'Service'] as const) {
        const { status, json } = await rpc(yieldServer, 'YieldGetMarkets', body, prefix);
        expect(status, JSON.stringify(body)).toBe(400);
        expect(json.code).toBe(2000);
        expect(json.error).toBe('InvalidArgument');
        expect(json.msg).toContain(field);
      }
    }
  });
});

describe('YieldCreateEnterAction', () => {
  const gammaUsdcId = () => {
    const gamma = net.chains[2]!;
    return idOf(gamma, gamma.entry.contracts.usdcVault as Address);
  };

  it('builds approve + deposit that give the user shares when sent directly to the vault', async () => {
    const gamma = net.chains[2]!;
    const vault = gamma.entry.contracts.usdcVault as Address;
    const usdc = gamma.entry.tokens.USDC as Address;
    const { status, json } = await rpc(yieldServer, 'YieldCreateEnterAction', {
      earnMarketId: gammaUsdcId(),
      userWalletAddress: user,
      args: { amount: '5000.25' },
    });
    expect(status, JSON.stringify(json)).toBe(200);
    const txs = json.payload.transactions as Json[];
    expect(txs.map((t) => t.to)).toEqual([usdc, vault]);
    expect(txs.map((t) => t.value)).toEqual(['0', '0']);
    expect(json.action.transactions.map((t: Json) => t.unsignedTransaction)).toEqual(txs);
    const amount = 5_000_250_000n;
    expect(json.payload.amountRaw).toBe(amount.toString());
    const deposit = decodeFunctionData({
      abi: parseAbi(['function deposit(uint256,address)']),
      data: txs[1]!.data,
    });
    expect(deposit.args).toEqual([amount, user]);

    const read = (functionName: 'totalAssets' | 'totalSupply') =>
      gamma.publicClient.readContract({ address: vault, abi: vaultReadAbi, functionName });
    const sharesBefore = await sharesOf(gamma, vault, user);
    const usdcBefore = await gamma.publicClient.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    });
    const wallet = gamma.walletFor('user');
    for (const tx of txs) {
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data as Hex, value: BigInt(tx.value) });
      const receipt = await gamma.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
    }
    const shares = (await sharesOf(gamma, vault, user)) - sharesBefore;
    expect(shares).toBeGreaterThan(0n);
    const worth = await assetsFor(gamma, vault, shares);
    // ERC-4626 rounds in the vault's favour: the shares are worth the deposit, less at most a base unit.
    expect(amount - worth).toBeLessThanOrEqual(1n);
    expect(worth).toBeLessThanOrEqual(amount);
    const usdcAfter = await gamma.publicClient.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    });
    expect(usdcBefore - usdcAfter).toBe(amount);
    expect(await read('totalSupply')).toBeGreaterThan(0n);
  });

  it('puts the vault the user deposited into first when sorted by tvlDesc', async () => {
    const listing = await markets({ sort: 'tvlDesc' });
    const tvls = (listing.items as Json[]).map((m) => m.statistics.tvlUsd as number);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));
    expect(listing.items[0].id).toBe(gammaUsdcId());
  });

  it('takes amountRaw in base units and sends the shares to args.receiverAddress', async () => {
    const beta = net.chains[1]!;
    const vault = beta.entry.contracts.daiVault as Address;
    const receiver = fresh();
    const amount = 123_456_789_000_000_000_000n;
    const { json } = await rpc(
      yieldServer,
      'YieldCreateEnterAction',
      {
        earnMarketId: idOf(beta, vault).toUpperCase().replace('ERC', 'erc'),
        userWalletAddress: user,
        args: { amountRaw: amount.toString(), receiverAddress: receiver },
      },
      'Service',
    );
    const wallet = beta.walletFor('user');
    for (const tx of json.payload.transactions as Json[]) {
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data as Hex });
      expect((await beta.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    }
    const shares = await sharesOf(beta, vault, receiver);
    const worth = await assetsFor(beta, vault, shares);
    expect(amount - worth).toBeLessThanOrEqual(1n);
    expect(json.payload.amount).toBe('123.456789');
  });

  it('answers NotFound for an unknown market and InvalidArgument for a bad wallet, receiver or amount', async () => {
    const call = (body: Json) => rpc(yieldServer, 'YieldCreateEnterAction', body);
    const unknown = await call({
      earnMarketId: 'erc4626-1-0x0000000000000000000000000000000000000001',
      userWalletAddress: user,
      args: { amount: '1' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toBe('NotFound');
    expect(unknown.json.code).toBe(8000);
    expect(unknown.json.msg).toContain('earnMarketId');

    const invalid: [Json, string][] = [
      [{ userWalletAddress: '0x1234', args: { amount: '1' } }, 'userWalletAddress'],
      [{ userWalletAddress: user, args: { amount: '1', receiverAddress: 'bob' } }, 'args.receiverAddress'],
      [{ userWalletAddress: user, args: { amount: '-1' } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: '0' } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: '0.000' } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: 'ten' } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: 1.5 } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: '1.0000001' } }, 'args.amount'],
      // Without an amount the action deposits the wallet's balance (enter-defaults.test.ts): none here.
      [{ userWalletAddress: fresh(), args: {} }, 'args.amount'],
      [{ userWalletAddress: user, args: { amount: '1', amountRaw: '1000000' } }, 'args.amount'],
      [{ userWalletAddress: user, args: { amountRaw: '1.5' } }, 'args.amountRaw'],
      [{ userWalletAddress: user, args: { amountRaw: '0' } }, 'args.amountRaw'],
      [{ userWalletAddress: user, args: { amountRaw: (2n ** 256n).toString() } }, 'args.amountRaw'],
      [{ userWalletAddress: user, args: 'lots' }, 'args'],
    ];
    for (const [body, field] of invalid) {
      const { status, json } = await call({ earnMarketId: gammaUsdcId(), ...body });
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.code, JSON.stringify(body)).toBe(2000);
      expect(json.msg, JSON.stringify(body)).toMatch(new RegExp(`^${field.replace('.', '\\.')}[:\\s]`));
    }
  });
});

describe('configured markets', () => {
  it('lists an explicit yieldMarkets entry with its provider, type and name (type=lending filter)', async () => {
    const gamma = net.chains[2]!;
    const daiVault = gamma.entry.contracts.daiVault as Address;
    const chains = net.chainConfigs.map((c) =>
      c.chainId === gamma.entry.chainId
        ? {
            ...c,
            yieldMarkets: [
              { vault: daiVault, providerId: 'acme', type: 'lending' as const, name: 'Acme DAI' },
            ],
          }
        : c,
    );
    const service = createYieldService({ chains, prices: yieldServer.prices, log: createSilentLogger() });
    const { YieldGetMarkets } = createYieldHandlers(service, { chainById: new Map(), now: () => new Date() });
    const ctx = { projectId: 1, method: 'YieldGetMarkets' as const, dialect: 'Trails' as const };
    const lending = await YieldGetMarkets({ type: 'lending' }, ctx);
    expect(lending.total).toBe(1);
    const [market] = lending.items as Json[];
    expect(market).toMatchObject({
      id: `acme-${gamma.entry.chainId}-${daiVault.toLowerCase()}`,
      providerId: 'acme',
      mechanics: { type: 'lending' },
      metadata: { name: 'Acme DAI', token: { symbol: 'DAI' } },
    });
    expect((await YieldGetMarkets({ provider: 'acme' }, ctx)).total).toBe(1);
    expect((await YieldGetMarkets({}, ctx)).total).toBe(4);
  });
});
