/**
 * Uniswap V3 tick ↔ price: `sqrtRatioAtTick(t)` = √(1.0001^t) as a Q64.96, bit for bit what the pools compute
 * (TickMath.getSqrtRatioAtTick), so that a local swap simulation lands on the same amounts as the chain.
 * Checked against QuoterV2 on the devnet (test/routing/uniswap-v3-math.test.ts).
 */

export const MIN_TICK = -887_272;
export const MAX_TICK = 887_272;
/** sqrtRatioAtTick(MIN_TICK) and sqrtRatioAtTick(MAX_TICK): the pools' price bounds. */
export const MIN_SQRT_RATIO = 4_295_128_739n;
export const MAX_SQRT_RATIO = 1_461_446_703_485_210_103_287_273_052_203_988_822_378_723_970_342n;

const Q32 = 1n << 32n;
const Q128 = 1n << 128n;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * The deployed library's multipliers: entry i is 2^128 / √1.0001^(2^i), rounded as the deployed bytecode has
 * it (not every entry is the nearest integer, so they are data, not something to recompute).
 */
const BIT_MULTIPLIERS: readonly bigint[] = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/** √(1.0001^tick) × 2^96, rounded up as the pools round it. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) {
    throw new RangeError(`tick ${tick} is outside [${MIN_TICK}, ${MAX_TICK}]`);
  }
  const absTick = Math.abs(tick);
  // Bit 0 starts the product (1 when the bit is clear); every further set bit multiplies in its factor.
  let ratio = absTick & 1 ? BIT_MULTIPLIERS[0]! : Q128;
  for (let bit = 1; bit < BIT_MULTIPLIERS.length; bit++) {
    if (absTick & (1 << bit)) ratio = (ratio * BIT_MULTIPLIERS[bit]!) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  // Q128.128 → Q64.96, rounding up so that the result never sits below the tick's true price.
  return (ratio >> 32n) + (ratio % Q32 === 0n ? 0n : 1n);
}

/** The greatest tick whose sqrtRatioAtTick is at most `sqrtPriceX96` (the pools' getTickAtSqrtRatio), by bisection. */
export function tickAtSqrtRatio(
  sqrtPriceX96: bigint,
  sqrtAt: (tick: number) => bigint = sqrtRatioAtTick,
): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new RangeError(`sqrt price ${sqrtPriceX96} is outside the pools' range`);
  }
  let low = MIN_TICK;
  let high = MAX_TICK;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (sqrtAt(middle) <= sqrtPriceX96) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** A memo of sqrtRatioAtTick for one simulation context: swaps step through the same few ticks again and again. */
export function createSqrtRatioMemo(): (tick: number) => bigint {
  const known = new Map<number, bigint>();
  return (tick) => {
    let ratio = known.get(tick);
    if (ratio === undefined) {
      ratio = sqrtRatioAtTick(tick);
      known.set(tick, ratio);
    }
    return ratio;
  };
}
