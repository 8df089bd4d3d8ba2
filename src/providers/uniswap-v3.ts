/**
 * UNISWAP_V3: the Uniswap V3 pools of a chain's canonical factory, at every fee tier. Paths are direct, or
 * through the wrapped native or the USD reference token (hub-tokens.ts; any fee tier on each hop). Quotes are local simulations of the pools' swap
 * loop on one snapshot of their state per plan (uniswap-v3-simulate-swap.ts), equal to QuoterV2's answers
 * without a read per amount; execution goes through SwapRouter02 (uniswap-swap-router02-calls.ts).
 */
import { type Address, isAddressEqual, type PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';
import { V3_SWAP_HOP_GAS, V3_TICK_CROSS_GAS } from './gas.ts';
import { hubTokens } from './hub-tokens.ts';
import { memoPathQuote } from './memo-path-quote.ts';
import { createPoolDirectory, type PoolDirectory } from './pool-directory.ts';
import { type PathQuote, ProviderId, type SwapPath, type SwapProvider, type TradeType } from './types.ts';
import { FEE_TIER_TICK_SPACING } from './uniswap-v3-pool-address.ts';
import { createV3PoolReader, type V3PoolReader, type V3PoolState } from './uniswap-v3-pool-state.ts';
import { simulateSwap } from './uniswap-v3-simulate-swap.ts';
import { mulDiv, Q96 } from './uniswap-v3-sqrt-price-math.ts';
import { FEE_PIPS_DENOMINATOR } from './uniswap-v3-swap-step.ts';
import { createSqrtRatioMemo } from './uniswap-v3-tick-math.ts';

export interface UniswapV3ProviderDeps {
  getClient(chainId: number): PublicClient;
  /** Pools known to exist or not, across plans; a plan of its own when absent. */
  directory?: PoolDirectory | undefined;
}

const FEE_TIERS = [...FEE_TIER_TICK_SPACING.keys()];

export function createUniswapV3Provider(deps: UniswapV3ProviderDeps): SwapProvider {
  const reader = createV3PoolReader({ ...deps, directory: deps.directory ?? createPoolDirectory() });
  const sqrtAt = createSqrtRatioMemo();
  const poolsOf = (chain: ChainConfig, a: Address, b: Address) =>
    Promise.all(FEE_TIERS.map((fee) => reader.pool(chain, a, b, fee))).then((found) =>
      found.filter((p): p is V3PoolState => p !== undefined),
    );

  const pathOf = (chain: ChainConfig, tokens: Address[], pools: V3PoolState[]): SwapPath => ({
    provider: ProviderId.UniswapV3,
    chainId: chain.chainId,
    tokens,
    pools: pools.map((p) => p.address),
    fees: pools.map((p) => p.fee),
    quote: memoPathQuote((tradeType, amount) =>
      quotePath(reader, sqrtAt, chain, tokens, pools, tradeType, amount),
    ),
  });

  return {
    id: ProviderId.UniswapV3,
    async paths(chain, tokenIn, tokenOut) {
      // V3 paths execute through SwapRouter02 only: without one, the chain's V3 pools are not routed through.
      const { uniswapV3Factory, uniswapSwapRouter02 } = chain.contracts;
      if (!uniswapV3Factory || !uniswapSwapRouter02 || isAddressEqual(tokenIn, tokenOut)) return [];
      const middles = hubTokens(chain, [tokenIn, tokenOut]);
      // Every pool a path could use is read side by side: the direct pair and both legs through each middle.
      const [direct, ...viaMiddle] = await Promise.all([
        poolsOf(chain, tokenIn, tokenOut),
        ...middles.map((m) => Promise.all([poolsOf(chain, tokenIn, m), poolsOf(chain, m, tokenOut)])),
      ]);
      const paths = direct!.map((pool) => pathOf(chain, [tokenIn, tokenOut], [pool]));
      viaMiddle.forEach(([first, second], i) => {
        for (const a of first)
          for (const b of second) paths.push(pathOf(chain, [tokenIn, middles[i]!, tokenOut], [a, b]));
      });
      return paths;
    },
  };
}

/** Runs a path hop by hop (EXACT_OUTPUT backwards from the output), reading bitmap words as the swaps reach them. */
async function quotePath(
  reader: V3PoolReader,
  sqrtAt: (tick: number) => bigint,
  chain: ChainConfig,
  tokens: readonly Address[],
  pools: readonly V3PoolState[],
  tradeType: TradeType,
  amount: bigint,
): Promise<PathQuote | undefined> {
  if (amount <= 0n) return undefined;
  const hops = pools.map((pool, i) => ({ pool, zeroForOne: isAddressEqual(tokens[i]!, pool.token0) }));
  let ticksCrossed = 0;
  const swap = async (hop: (typeof hops)[number], exact: bigint) => {
    for (;;) {
      const result = simulateSwap(hop.pool, hop.zeroForOne, exact, sqrtAt);
      if (result.kind === 'needs-word') {
        if (await reader.loadWord(chain, hop.pool, result.word)) continue;
        return undefined;
      }
      if (result.kind === 'exhausted' || result.amountOut === 0n) return undefined;
      ticksCrossed += result.ticksCrossed;
      return result;
    }
  };
  let amountIn = amount;
  let amountOut = amount;
  if (tradeType === 'EXACT_INPUT') {
    for (const hop of hops) {
      const result = await swap(hop, amountOut);
      if (!result) return undefined;
      amountOut = result.amountOut;
    }
  } else {
    for (const hop of [...hops].reverse()) {
      const result = await swap(hop, -amountIn);
      if (!result) return undefined;
      amountIn = result.amountIn;
    }
  }
  let spot = amountIn;
  let kept = amountIn;
  for (const { pool, zeroForOne } of hops) {
    spot = spotOut(pool, zeroForOne, spot);
    kept = (kept * (FEE_PIPS_DENOMINATOR - BigInt(pool.fee))) / FEE_PIPS_DENOMINATOR;
  }
  return {
    amountIn,
    amountOut,
    spotAmountOut: spot,
    feeAmount: amountIn - kept,
    gas: BigInt(hops.length) * V3_SWAP_HOP_GAS + BigInt(ticksCrossed) * V3_TICK_CROSS_GAS,
  };
}

/** `amountIn` after the pool's fee at its current price: price = (√P / 2^96)² of token1 per token0. */
function spotOut(pool: V3PoolState, zeroForOne: boolean, amountIn: bigint): bigint {
  const afterFee = (amountIn * (FEE_PIPS_DENOMINATOR - BigInt(pool.fee))) / FEE_PIPS_DENOMINATOR;
  const sqrtP = pool.sqrtPriceX96;
  return zeroForOne
    ? mulDiv(mulDiv(afterFee, sqrtP, Q96), sqrtP, Q96)
    : mulDiv(mulDiv(afterFee, Q96, sqrtP), Q96, sqrtP);
}
