/**
 * The UNISWAP_V3 provider's local quotes against QuoterV2 on the devnet: for every seeded pool, both
 * directions, exact input and exact output, amounts from a base unit to beyond the pool's liquidity, the
 * local swap loop gives the same amounts, the same price after the swap and the same number of initialized
 * ticks crossed, to the base unit; where QuoterV2 runs the pool dry (its price ends at the limit) the local
 * quote refuses the amount. Then the same for two-hop paths, and for a pool with a position spanning many
 * bitmap words, so that quotes read words beyond the ones read with the pool.
 */
import { type Address, erc20Abi, maxUint256, type PublicClient, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionManagerAbi, uniswapV3FactoryAbi, uniswapV3PoolAbi } from '../../src/devnet/abis.ts';
import { STABLE_FEE_TIER, V3_POOL_SEED } from '../../src/devnet/constants.ts';
import { mint } from '../../src/devnet/mint.ts';
import { sendAndWait } from '../../src/devnet/send-and-wait.ts';
import { loadUniswapArtifacts } from '../../src/devnet/uniswap-artifacts.ts';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { createPoolDirectory } from '../../src/providers/pool-directory.ts';
import { createUniswapV3Provider } from '../../src/providers/uniswap-v3.ts';
import { poolAddress } from '../../src/providers/uniswap-v3-pool-address.ts';
import { createV3PoolReader } from '../../src/providers/uniswap-v3-pool-state.ts';
import { simulateSwap } from '../../src/providers/uniswap-v3-simulate-swap.ts';
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
} from '../../src/providers/uniswap-v3-tick-math.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

type Quoter = ReturnType<typeof quoterOf>;

const poolInitializeAbi = parseAbi(['function initialize(uint160 sqrtPriceX96)']);

let net: TestDevnet;
let alpha: TestDevnetChain;
let alphaConfig: ChainConfig;
beforeAll(async () => {
  net = await startTestDevnet();
  alpha = net.chains[0]!;
  alphaConfig = net.chainConfigs[0]!;
});
afterAll(async () => {
  await net?.stop();
});

const tokenOf = (chain: TestDevnetChain, symbol: string) => chain.entry.tokens[symbol] as Address;
const decimalsOf: Record<string, number> = { USDC: 6, DAI: 18, WETH: 18 };

/** Amounts of a token from one base unit to far past any devnet pool: 1·10^k and 4·10^k. */
function amounts(decimals: number): bigint[] {
  const out = [1n];
  for (let k = Math.max(0, decimals - 4); k <= decimals + 7; k++)
    out.push(10n ** BigInt(k), 4n * 10n ** BigInt(k));
  return out;
}

function quoterOf(chain: TestDevnetChain) {
  const { abi } = loadUniswapArtifacts().quoterV2;
  const address = chain.entry.contracts.uniswapV3QuoterV2 as Address;
  const call = async (functionName: string, args: unknown[]) => {
    try {
      const { result } = await chain.publicClient.simulateContract({
        address,
        abi,
        functionName,
        args,
      } as never);
      return result as unknown as readonly [
        bigint,
        bigint | readonly bigint[],
        number | readonly number[],
        bigint,
      ];
    } catch {
      return undefined;
    }
  };
  return {
    single: (
      tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT',
      tokenIn: Address,
      tokenOut: Address,
      fee: number,
      amount: bigint,
    ) =>
      call(tradeType === 'EXACT_INPUT' ? 'quoteExactInputSingle' : 'quoteExactOutputSingle', [
        {
          tokenIn,
          tokenOut,
          fee,
          sqrtPriceLimitX96: 0n,
          ...(tradeType === 'EXACT_INPUT' ? { amountIn: amount } : { amount }),
        },
      ]),
    path: (tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT', path: `0x${string}`, amount: bigint) =>
      call(tradeType === 'EXACT_INPUT' ? 'quoteExactInput' : 'quoteExactOutput', [path, amount]),
  };
}

/**
 * Compares every amount of one pool direction; returns how many quotes the pool served and how many bitmap
 * words the simulation had to read beyond the ones read with the pool.
 */
async function compareSingle(
  chain: TestDevnetChain,
  config: ChainConfig,
  quoter: Quoter,
  tokenIn: Address,
  tokenOut: Address,
  fee: number,
  decimals: number,
): Promise<{ served: number; wordsRead: number }> {
  const reader = createV3PoolReader({
    getClient: () => chain.publicClient as PublicClient,
    directory: createPoolDirectory(),
  });
  const pool = (await reader.pool(config, tokenIn, tokenOut, fee))!;
  const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase();
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  let served = 0;
  let wordsRead = 0;
  for (const tradeType of ['EXACT_INPUT', 'EXACT_OUTPUT'] as const) {
    for (const amount of amounts(
      tradeType === 'EXACT_INPUT' ? decimals : decimalsOf[symbolOf(chain, tokenOut)]!,
    )) {
      const label = `${tradeType} ${amount} ${tokenIn}→${tokenOut} @${fee}`;
      let local = simulateSwap(
        pool,
        zeroForOne,
        tradeType === 'EXACT_INPUT' ? amount : -amount,
        sqrtRatioAtTick,
      );
      while (local.kind === 'needs-word') {
        expect(await reader.loadWord(config, pool, local.word), label).toBe(true);
        wordsRead++;
        local = simulateSwap(
          pool,
          zeroForOne,
          tradeType === 'EXACT_INPUT' ? amount : -amount,
          sqrtRatioAtTick,
        );
      }
      const chainQuote = await quoter.single(tradeType, tokenIn, tokenOut, fee, amount);
      const [chainAmount, sqrtAfter, crossed] = chainQuote ?? [];
      const ranDry = chainQuote === undefined || sqrtAfter === limit;
      if (ranDry) {
        expect(local.kind, label).toBe('exhausted');
        continue;
      }
      expect(local.kind, label).toBe('done');
      if (local.kind !== 'done') continue;
      served++;
      expect(tradeType === 'EXACT_INPUT' ? local.amountOut : local.amountIn, label).toBe(chainAmount);
      expect(local.sqrtPriceAfter, label).toBe(sqrtAfter);
      expect(local.ticksCrossed, label).toBe(Number(crossed));
    }
  }
  return { served, wordsRead };
}

function symbolOf(chain: TestDevnetChain, token: Address): string {
  return Object.entries(chain.entry.tokens).find(([, a]) => a.toLowerCase() === token.toLowerCase())![0];
}

describe('local V3 quotes equal QuoterV2', () => {
  it('on every seeded pool, both directions, exact input and output, from one base unit to running dry', async () => {
    const quoter = quoterOf(alpha);
    for (const seed of V3_POOL_SEED) {
      for (const [from, to] of [
        [seed.base, seed.quote],
        [seed.quote, seed.base],
      ] as const) {
        const { served } = await compareSingle(
          alpha,
          alphaConfig,
          quoter,
          tokenOf(alpha, from),
          tokenOf(alpha, to),
          seed.fee,
          decimalsOf[from]!,
        );
        // The grid reaches from amounts every pool serves to amounts none can: both kinds were compared.
        expect(served, `${from}→${to} @${seed.fee}`).toBeGreaterThan(5);
      }
    }
  });

  it('on every two-hop path the provider finds, in both trade types', async () => {
    const quoter = quoterOf(alpha);
    const provider = createUniswapV3Provider({ getClient: () => alpha.publicClient as PublicClient });
    let compared = 0;
    for (const [from, to] of [
      ['DAI', 'WETH'],
      ['WETH', 'DAI'],
      ['USDC', 'WETH'],
    ] as const) {
      const paths = await provider.paths(alphaConfig, tokenOf(alpha, from), tokenOf(alpha, to));
      for (const path of paths.filter((p) => p.tokens.length === 3)) {
        for (const tradeType of ['EXACT_INPUT', 'EXACT_OUTPUT'] as const) {
          const decimals = decimalsOf[tradeType === 'EXACT_INPUT' ? from : to]!;
          for (const amount of amounts(decimals)) {
            const tokens = tradeType === 'EXACT_INPUT' ? path.tokens : [...path.tokens].reverse();
            const fees = tradeType === 'EXACT_INPUT' ? path.fees : [...path.fees].reverse();
            const packed = packPath(tokens, fees);
            const [chainAmount, after] = (await quoter.path(tradeType, packed, amount)) ?? [];
            const local = await path.quote(tradeType, amount);
            const ranDry =
              chainAmount === undefined ||
              (after as readonly bigint[]).some(
                (p) => p === MIN_SQRT_RATIO + 1n || p === MAX_SQRT_RATIO - 1n,
              );
            const label = `${tradeType} ${amount} ${path.tokens.join('→')} ${path.fees.join('/')}`;
            if (ranDry) {
              expect(local, label).toBeUndefined();
              continue;
            }
            expect(tradeType === 'EXACT_INPUT' ? local?.amountOut : local?.amountIn, label).toBe(chainAmount);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('on a pool whose liquidity spans many bitmap words (the words past the first ones are read as swaps reach them)', async () => {
    const beta = net.chains[1]!;
    const betaConfig = net.chainConfigs[1]!;
    const usdc = tokenOf(beta, 'USDC');
    const dai = tokenOf(beta, 'DAI');
    // A wide position in the 0.01 % stable pool (tick spacing 1, 256 ticks a word): ±15 %, about 11 words.
    const wallet = beta.walletFor('deployer');
    const clients = { publicClient: beta.publicClient, walletClient: wallet };
    const manager = beta.entry.contracts.uniswapV3PositionManager as Address;
    const [token0, token1] = usdc.toLowerCase() < dai.toLowerCase() ? [usdc, dai] : [dai, usdc];
    const center = 276_324; // the pool's tick: 1 DAI (1e18) = 1 USDC (1e6), token0 = USDC
    const width = 1_400;
    for (const token of [usdc, dai]) {
      await mint(clients, token, wallet.account.address, 10n ** 30n);
      await sendAndWait(clients, {
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [manager, maxUint256],
      });
    }
    const deadline = (await beta.publicClient.getBlock()).timestamp + 600n;
    await sendAndWait(clients, {
      address: manager,
      abi: positionManagerAbi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee: STABLE_FEE_TIER.fee,
          tickLower: center - width,
          tickUpper: center + width,
          amount0Desired: 200_000n * 10n ** 6n,
          amount1Desired: 200_000n * 10n ** 18n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: wallet.account.address,
          deadline,
        },
      ],
    });
    const quoter = quoterOf(beta);
    for (const [from, to] of [
      [usdc, dai],
      [dai, usdc],
    ] as const) {
      const { served, wordsRead } = await compareSingle(
        beta,
        betaConfig,
        quoter,
        from,
        to,
        STABLE_FEE_TIER.fee,
        decimalsOf[symbolOf(beta, from)]!,
      );
      expect(served).toBeGreaterThan(5);
      expect(wordsRead).toBeGreaterThan(0);
    }
  });
});

describe('the tick math equals the pools', () => {
  it("puts sqrtRatioAtTick(t) exactly on the pool's tick boundary: initialised there a pool is at tick t, one unit lower at t − 1", async () => {
    // A pool of its own (the 1 % tier of USDC/DAI, not seeded) on gamma, initialised again and again: its
    // slot0 is cleared with anvil between two initialisations. The pool derives the tick with its own
    // getTickAtSqrtRatio: a boundary of ours one unit off from the pools' shows as the wrong tick.
    const gamma = net.chains[2]!;
    const clients = { publicClient: gamma.publicClient, walletClient: gamma.walletFor('deployer') };
    const factory = gamma.entry.contracts.uniswapV3Factory as Address;
    const [usdc, dai] = [tokenOf(gamma, 'USDC'), tokenOf(gamma, 'DAI')];
    await sendAndWait(clients, {
      address: factory,
      abi: uniswapV3FactoryAbi,
      functionName: 'createPool',
      args: [usdc, dai, 10_000],
    });
    const pool = poolAddress(factory, usdc, dai, 10_000);
    const tickAfterInitialising = async (sqrtPriceX96: bigint) => {
      await gamma.testClient.setStorageAt({ address: pool, index: 0, value: `0x${'0'.repeat(64)}` });
      await sendAndWait(clients, {
        address: pool,
        abi: poolInitializeAbi,
        functionName: 'initialize',
        args: [sqrtPriceX96],
      });
      const [, tick] = await gamma.publicClient.readContract({
        address: pool,
        abi: uniswapV3PoolAbi,
        functionName: 'slot0',
      });
      return tick;
    };
    // Every multiplier is used by some tick with that bit set: ±2^k, and ±(2^(k+1) − 1) with all lower bits set.
    const ticks = new Set<number>([MIN_TICK + 1, MAX_TICK - 1]);
    for (let k = 0; k < 20; k++) {
      for (const t of [2 ** k, 2 ** (k + 1) - 1]) {
        if (t < MAX_TICK) {
          ticks.add(t);
          ticks.add(-t);
        }
      }
    }
    for (const tick of ticks) {
      expect(await tickAfterInitialising(sqrtRatioAtTick(tick)), `at ${tick}`).toBe(tick);
      expect(await tickAfterInitialising(sqrtRatioAtTick(tick) - 1n), `below ${tick}`).toBe(tick - 1);
    }
  });
});

function packPath(tokens: readonly Address[], fees: readonly number[]): `0x${string}` {
  let out = tokens[0]!.toLowerCase();
  fees.forEach((fee, i) => {
    out += fee.toString(16).padStart(6, '0') + tokens[i + 1]!.slice(2).toLowerCase();
  });
  return out as `0x${string}`;
}
