/**
 * Turns a V3 pool seed (devnet/constants.ts) into what the position manager is called with: the pool's
 * token order, its initial √price (the seed's exact ratio) and, per position, the tick range and the token
 * amounts for the liquidity that holds `quoteAmount` on the quote side.
 */
import type { Address } from 'viem';
import { FEE_TIER_TICK_SPACING, sortTokens } from '../providers/uniswap-v3-pool-address.ts';
import { amount0Delta, amount1Delta, Q96 } from '../providers/uniswap-v3-sqrt-price-math.ts';
import { sqrtRatioAtTick, tickAtSqrtRatio } from '../providers/uniswap-v3-tick-math.ts';
import type { DevnetPoolToken, V3PoolSeed } from './constants.ts';

export interface PlannedV3Position {
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
  amount0: bigint;
  amount1: bigint;
}

export interface PlannedV3Pool {
  token0: Address;
  token1: Address;
  fee: number;
  tickSpacing: number;
  sqrtPriceX96: bigint;
  positions: PlannedV3Position[];
}

/** ln(1.0001): one tick is a 0.01 % price step. */
const LN_TICK_BASE = Math.log(1.0001);
const BPS = 10_000;

export function planV3Pool(seed: V3PoolSeed, tokens: Record<DevnetPoolToken, Address>): PlannedV3Pool {
  const base = tokens[seed.base];
  const quote = tokens[seed.quote];
  const [token0, token1] = sortTokens(base, quote);
  const quoteIsToken1 = token1 === quote;
  const tickSpacing = FEE_TIER_TICK_SPACING.get(seed.fee);
  if (tickSpacing === undefined) throw new RangeError(`fee tier ${seed.fee} is not a Uniswap V3 tier`);
  // √(amount1 / amount0) in Q64.96, from the exact ratio of base units.
  const [amount0, amount1] = quoteIsToken1
    ? [seed.price.base, seed.price.quote]
    : [seed.price.quote, seed.price.base];
  const sqrtPriceX96 = integerSqrt((amount1 << 192n) / amount0);
  const tick = tickAtSqrtRatio(sqrtPriceX96);
  const positions = seed.positions.map((position) => {
    const half = Math.log(1 + position.widthBps / BPS) / LN_TICK_BASE;
    const tickLower = Math.floor((tick - half) / tickSpacing) * tickSpacing;
    const tickUpper = Math.ceil((tick + half) / tickSpacing) * tickSpacing;
    const sqrtLower = sqrtRatioAtTick(tickLower);
    const sqrtUpper = sqrtRatioAtTick(tickUpper);
    // The quote token is held below the price when it is token1 (L·(√P − √a)), above it when token0.
    const liquidity = quoteIsToken1
      ? (position.quoteAmount * Q96) / (sqrtPriceX96 - sqrtLower)
      : (position.quoteAmount * ((sqrtPriceX96 * sqrtUpper) / Q96)) / (sqrtUpper - sqrtPriceX96);
    return {
      tickLower,
      tickUpper,
      liquidity,
      amount0: amount0Delta(sqrtPriceX96, sqrtUpper, liquidity, true),
      amount1: amount1Delta(sqrtLower, sqrtPriceX96, liquidity, true),
    };
  });
  return { token0, token1, fee: seed.fee, tickSpacing, sqrtPriceX96, positions };
}

function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
