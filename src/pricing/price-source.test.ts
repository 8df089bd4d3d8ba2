/**
 * The price source against a real devnet: prices read from the seeded Uniswap V2 and V3 pools (weighted by
 * their depth at the price), a token priced through WETH, a swap in either protocol moving the price by its
 * pool's weight once the cache expires, static prices, and GetTokenPrices serving the same numbers through
 * the official client.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, parseEther, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../test/harness/devnet.ts';
import { createApiServer } from '../api/server.ts';
import { switchyardSalt } from '../contracts/create2.ts';
import { deployDevToken } from '../contracts/deploy-dev-tokens.ts';
import {
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV2RouterAbi,
  uniswapV3PoolAbi,
} from '../devnet/abis.ts';
import { POOL_SEED } from '../devnet/constants.ts';
import { mint } from '../devnet/mint.ts';
import { sendAndWait } from '../devnet/send-and-wait.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { swapRouter02Abi } from '../providers/abis.ts';
import { poolAddress } from '../providers/uniswap-v3-pool-address.ts';
import { PRICE_TTL_MS } from './constants.ts';
import { createPriceSource } from './create-price-source.ts';

const SEEDED_ETH_PRICE =
  Number(POOL_SEED.usdcWeth.usdc / 10n ** 6n) / Number(POOL_SEED.usdcWeth.eth / 10n ** 18n);
/** Mid prices are exact ratios of reserves; 9 significant digits is far inside a float's precision. */
const DIGITS = 6;
const FAR_FUTURE = 2n ** 40n;

let net: TestDevnet;
beforeAll(async () => {
  net = await startTestDevnet();
});
afterAll(() => net?.stop());

const tokenOf = (chain: TestDevnetChain, symbol: string) => chain.entry.tokens[symbol] as Address;

/** Mints `amount` of `token` to the wallet and lets `spender` take it. */
async function mintAndApprove(
  clients: Parameters<typeof sendAndWait>[0],
  token: Address,
  spender: Address,
  amount: bigint,
): Promise<void> {
  await mint(clients, token, clients.walletClient.account.address, amount);
  await sendAndWait(clients, {
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, amount],
  });
}

function clockedSource(clock: { ms: number }) {
  return createPriceSource({ chains: net.chainConfigs, log: createSilentLogger(), now: () => clock.ms });
}

async function wethUsdcReserves(chain: TestDevnetChain): Promise<{ usdc: bigint; weth: bigint }> {
  const usdc = tokenOf(chain, 'USDC');
  const weth = tokenOf(chain, 'WETH');
  const pair = await chain.publicClient.readContract({
    address: chain.entry.contracts.uniswapV2Factory as Address,
    abi: uniswapV2FactoryAbi,
    functionName: 'getPair',
    args: [usdc, weth],
  });
  const [[r0, r1], token0] = await Promise.all([
    chain.publicClient.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' }),
    chain.publicClient.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'token0' }),
  ]);
  return token0.toLowerCase() === usdc.toLowerCase() ? { usdc: r0, weth: r1 } : { usdc: r1, weth: r0 };
}

/**
 * WETH's USD price as the chain's pools stand, in floating point from their raw state: the V2 pair and the
 * seeded 0.05 % and 0.3 % V3 pools, each weighted by its USDC depth (the pair's reserve; a V3 pool's
 * in-range liquidity as a virtual reserve, L·√P or L/√P).
 */
async function blendedWethPrice(chain: TestDevnetChain): Promise<{ blended: number; v2: number }> {
  const usdc = tokenOf(chain, 'USDC');
  const weth = tokenOf(chain, 'WETH');
  const reserves = await wethUsdcReserves(chain);
  const v2 = Number(reserves.usdc) / 1e6 / (Number(reserves.weth) / 1e18);
  let weighted = v2 * (Number(reserves.usdc) / 1e6);
  let depth = Number(reserves.usdc) / 1e6;
  const usdcIsToken0 = usdc.toLowerCase() < weth.toLowerCase();
  for (const fee of [500, 3000]) {
    const pool = poolAddress(chain.entry.contracts.uniswapV3Factory as Address, usdc, weth, fee);
    const [[sqrtPriceX96], liquidity] = await Promise.all([
      chain.publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'slot0' }),
      chain.publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'liquidity' }),
    ]);
    const sqrtP = Number(sqrtPriceX96) / 2 ** 96;
    // token1 per token0 in base units is √P²; WETH in USDC then follows from the order and the decimals.
    const price = usdcIsToken0 ? (1 / (sqrtP * sqrtP) / 1e6) * 1e18 : (sqrtP * sqrtP * 1e18) / 1e6;
    const usdcDepth = (usdcIsToken0 ? Number(liquidity) / sqrtP : Number(liquidity) * sqrtP) / 1e6;
    weighted += price * usdcDepth;
    depth += usdcDepth;
  }
  return { blended: weighted / depth, v2 };
}

describe('pool prices on the devnet', () => {
  it('prices USDC at 1, DAI at about 1, WETH at the seeded price and ETH as WETH', async () => {
    const prices = clockedSource({ ms: 0 });
    const gamma = net.chains[2]!;
    const id = gamma.entry.chainId;
    expect(await prices.getPriceUsd(id, tokenOf(gamma, 'USDC'))).toBe(1);
    expect(await prices.getPriceUsd(id, tokenOf(gamma, 'DAI'))).toBeCloseTo(1, DIGITS);
    const weth = await prices.getPriceUsd(id, tokenOf(gamma, 'WETH'));
    expect(weth).toBeCloseTo(SEEDED_ETH_PRICE, DIGITS);
    expect(await prices.getPriceUsd(id, zeroAddress)).toBe(weth);
    // Address case does not matter.
    expect(await prices.getPriceUsd(id, tokenOf(gamma, 'WETH').toUpperCase().replace('0X', '0x'))).toBe(weth);
  });

  it("a swap that moves the V2 pair moves the price by the pair's weight, once the cached price expires", async () => {
    const alpha = net.chains[0]!;
    const id = alpha.entry.chainId;
    const clock = { ms: 0 };
    const prices = clockedSource(clock);
    const weth = tokenOf(alpha, 'WETH');
    const usdc = tokenOf(alpha, 'USDC');
    const before = await prices.getPriceUsd(id, weth);
    expect(before).toBeCloseTo(SEEDED_ETH_PRICE, DIGITS);

    // The user buys WETH with 300,000 USDC in the V2 pair: USDC piles up there, WETH leaves, WETH gets dearer.
    const user = alpha.walletFor('user');
    const clients = { publicClient: alpha.publicClient, walletClient: user };
    const spend = parseUnits('300000', 6);
    const router = alpha.entry.contracts.uniswapV2Router as Address;
    await mintAndApprove(clients, usdc, router, spend);
    await sendAndWait(clients, {
      address: router,
      abi: uniswapV2RouterAbi,
      functionName: 'swapExactTokensForTokens',
      args: [spend, 0n, [usdc, weth], user.account.address, FAR_FUTURE],
    });

    clock.ms = PRICE_TTL_MS - 1;
    expect(await prices.getPriceUsd(id, weth)).toBe(before);
    clock.ms = PRICE_TTL_MS;
    const after = await prices.getPriceUsd(id, weth);
    const { blended, v2 } = await blendedWethPrice(alpha);
    expect(after).toBeCloseTo(blended, DIGITS);
    // The pair alone moved over 20 %; the deeper V3 pools, unmoved, hold the blend much closer to the seed.
    expect(v2).toBeGreaterThan(before! * 1.2);
    expect(after).toBeGreaterThan(before!);
    expect(after).toBeLessThan(before! + (v2 - before!) / 2);
    expect(await prices.getPriceUsd(id, zeroAddress)).toBe(after);
    expect(prices.updatedAt(id, weth)?.getTime()).toBe(PRICE_TTL_MS);
  });

  it("a swap in a V3 pool moves the price by that pool's weight", async () => {
    const beta = net.chains[1]!;
    const id = beta.entry.chainId;
    const clock = { ms: 0 };
    const prices = clockedSource(clock);
    const weth = tokenOf(beta, 'WETH');
    const usdc = tokenOf(beta, 'USDC');
    const before = await prices.getPriceUsd(id, weth);
    // 100,000 USDC into the 0.05 % pool through SwapRouter02.
    const user = beta.walletFor('user');
    const clients = { publicClient: beta.publicClient, walletClient: user };
    const spend = parseUnits('100000', 6);
    const router = beta.entry.contracts.uniswapSwapRouter02 as Address;
    await mintAndApprove(clients, usdc, router, spend);
    const path = `${usdc}${(500).toString(16).padStart(6, '0')}${weth.slice(2)}` as `0x${string}`;
    await sendAndWait(clients, {
      address: router,
      abi: swapRouter02Abi,
      functionName: 'exactInput',
      args: [{ path, recipient: user.account.address, amountIn: spend, amountOutMinimum: 0n }],
    });
    clock.ms = PRICE_TTL_MS;
    const after = await prices.getPriceUsd(id, weth);
    const { blended, v2 } = await blendedWethPrice(beta);
    expect(after).toBeCloseTo(blended, DIGITS);
    expect(after).toBeGreaterThan(before!);
    // The V2 pair did not move: the rise is the V3 pool's.
    expect(v2).toBeCloseTo(SEEDED_ETH_PRICE, DIGITS);
  });

  it('prices a token with only a WETH pool through WETH, and a token without pools not at all', async () => {
    const beta = net.chains[1]!;
    const id = beta.entry.chainId;
    const deployer = beta.walletFor('deployer');
    const clients = { publicClient: beta.publicClient, walletClient: deployer };
    const token = await deployDevToken({
      ...clients,
      name: 'DevDAI',
      salt: switchyardSalt('pricing-test-token'),
    });
    const lonely = await deployDevToken({
      ...clients,
      name: 'DevDAI',
      salt: switchyardSalt('pricing-lonely'),
    });
    // 6,000 tokens against 1 ETH: one token is worth 1/6000 ETH = 0.5 USD at 3,000 USD per ETH.
    const amount = parseEther('6000');
    const router = beta.entry.contracts.uniswapV2Router as Address;
    await mintAndApprove(clients, token, router, amount);
    await sendAndWait(clients, {
      address: router,
      abi: uniswapV2RouterAbi,
      functionName: 'addLiquidityETH',
      args: [token, amount, amount, parseEther('1'), deployer.account.address, FAR_FUTURE],
      value: parseEther('1'),
    });
    const prices = clockedSource({ ms: 0 });
    const wethUsd = await prices.getPriceUsd(id, zeroAddress);
    expect(await prices.getPriceUsd(id, token)).toBeCloseTo(wethUsd! / 6000, DIGITS);
    expect(await prices.getPriceUsd(id, lonely)).toBeUndefined();
    expect(await prices.getPriceUsd(id, 'not an address')).toBeUndefined();
    expect(await prices.getPriceUsd(999, tokenOf(beta, 'USDC'))).toBeUndefined();
  });
});

describe('static prices', () => {
  it('serve configured numbers, which win over pools; a chain without pools has only those', async () => {
    const alpha = net.chains[0]!;
    const noPools = {
      ...net.chainConfigs[0]!,
      chainId: 424242,
      contracts: { ...net.chainConfigs[0]!.contracts },
    };
    delete noPools.contracts.uniswapV2Factory;
    delete noPools.contracts.uniswapV3Factory;
    const dai = tokenOf(alpha, 'DAI');
    const prices = createPriceSource({
      chains: [...net.chainConfigs, noPools],
      prices: {
        [`424242:${zeroAddress}`]: 2500.5,
        [`${alpha.entry.chainId}:${dai.toUpperCase().replace('0X', '0x')}`]: 0.99,
      },
      log: createSilentLogger(),
    });
    expect(await prices.getPriceUsd(424242, zeroAddress)).toBe(2500.5);
    expect(await prices.getPriceUsd(424242, dai)).toBeUndefined();
    expect(await prices.getPriceUsd(alpha.entry.chainId, dai)).toBe(0.99);
  });

  it('a bad static entry fails at start-up naming the key', () => {
    const build = (prices: Record<string, number>) => () =>
      createPriceSource({ chains: [], prices, log: createSilentLogger() });
    expect(build({ 'eth:0x00': 1 })).toThrow(/prices\["eth:0x00"\]: the key must be/);
    expect(build({ [`1:${zeroAddress}`]: -3 })).toThrow(/must be a positive number/);
  });
});

describe('GetTokenPrices on the devnet', () => {
  it('serves the pool prices through the official client', async () => {
    const gamma = net.chains[2]!;
    const id = gamma.entry.chainId;
    const prices = createPriceSource({ chains: net.chainConfigs, log: createSilentLogger() });
    const server = await createApiServer({
      chains: net.chainConfigs,
      prices,
      resolveAccessKey: (key) => (key === 'k' ? { projectId: 1 } : undefined),
      rateLimit: false,
      log: createSilentLogger(),
    });
    try {
      const api = new TrailsApi('k', { hostname: await server.listen(0) });
      const tokens = [
        { chainId: id, tokenAddress: tokenOf(gamma, 'WETH') },
        { chainId: id, tokenAddress: zeroAddress, tokenSymbol: 'ETH' },
        { chainId: id, tokenAddress: tokenOf(gamma, 'USDC') },
      ];
      const { tokenPrices } = await api.getTokenPrices({ tokens });
      expect(tokenPrices.map((p) => p.token)).toEqual(tokens);
      expect(tokenPrices[0]!.priceUsd).toBeCloseTo(SEEDED_ETH_PRICE, DIGITS);
      expect(tokenPrices[1]!.priceUsd).toBe(tokenPrices[0]!.priceUsd);
      expect(tokenPrices[2]!.priceUsd).toBe(1);
      expect(tokenPrices[0]!.updatedAt).toBe(prices.updatedAt(id, tokenOf(gamma, 'WETH'))!.toISOString());
    } finally {
      await server.close();
    }
  });
});
