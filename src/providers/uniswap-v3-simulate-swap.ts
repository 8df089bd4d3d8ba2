/**
 * A Uniswap V3 pool's swap loop, run locally on a snapshot of the pool (price, tick, in-range liquidity and the
 * initialized ticks of the bitmap words read so far): the same steps, tick crossings and rounding as the
 * pool's `swap`, so the amounts equal QuoterV2's (test/routing/uniswap-v3-math.test.ts). No price limit: a
 * swap either completes or the pool runs out of liquidity.
 *
 * The bitmap is read lazily, one 256-tick word at a time: when the loop reaches a word the snapshot does not
 * hold while liquidity is in range, the simulation stops and names it, and the caller reads it and runs the
 * simulation again. Reaching it with no liquidity in range ends the swap as exhausted.
 */

import { swapStep } from './uniswap-v3-swap-step.ts';
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  tickAtSqrtRatio,
} from './uniswap-v3-tick-math.ts';

export interface V3PoolSnapshot {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Fee in pips (3000 = 0.3 %). */
  fee: number;
  tickSpacing: number;
  /** Bitmap word position → its bits (bit i = compressed tick 256·word + i is initialized). */
  words: ReadonlyMap<number, bigint>;
  /** Initialized tick → the liquidity that enters when the price crosses it upwards. */
  liquidityNet: ReadonlyMap<number, bigint>;
}

export type SwapSimulation =
  | {
      kind: 'done';
      amountIn: bigint;
      amountOut: bigint;
      sqrtPriceAfter: bigint;
      /** Initialized ticks crossed (each costs the swap extra gas). */
      ticksCrossed: number;
    }
  /** The loop reached a bitmap word the snapshot does not hold. */
  | { kind: 'needs-word'; word: number }
  /** The pool's liquidity ends before the amount is filled. */
  | { kind: 'exhausted' };

/**
 * `amount` > 0: exact input of the token sold; < 0: exact output of the token bought. `sqrtAt` is
 * sqrtRatioAtTick (usually memoised).
 */
export function simulateSwap(
  pool: V3PoolSnapshot,
  zeroForOne: boolean,
  amount: bigint,
  sqrtAt: (tick: number) => bigint,
): SwapSimulation {
  const exactIn = amount > 0n;
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  const fee = BigInt(pool.fee);
  let remaining = amount;
  let calculated = 0n;
  let sqrtPrice = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let ticksCrossed = 0;
  while (remaining !== 0n && sqrtPrice !== limit) {
    const next = nextInitializedTick(pool, tick, zeroForOne);
    // Past the words read, with no liquidity left: the pool has run dry here. More liquidity may sit further
    // out, but only after a price move of a whole empty word (≥ 2.6 % even for the 0.01 % tier), which no
    // route should take; stopping saves reading word after empty word.
    if (next.kind === 'needs-word') return liquidity === 0n ? { kind: 'exhausted' } : next;
    const tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, next.tick));
    const sqrtNext = sqrtAt(tickNext);
    const target = (zeroForOne ? sqrtNext < limit : sqrtNext > limit) ? limit : sqrtNext;
    const step = swapStep(sqrtPrice, target, liquidity, remaining, fee);
    const sqrtStart = sqrtPrice;
    sqrtPrice = step.sqrtPriceNext;
    if (exactIn) {
      remaining -= step.amountIn + step.feeAmount;
      calculated += step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (sqrtPrice === sqrtNext) {
      if (next.initialized) {
        const net = pool.liquidityNet.get(tickNext) ?? 0n;
        liquidity += zeroForOne ? -net : net;
        ticksCrossed++;
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (remaining !== 0n && sqrtPrice !== sqrtStart) {
      // Short of the next tick the amount is normally all spent and the loop ends; if rounding left a unit,
      // the next step starts from the tick of the new price, as in the pool.
      tick = tickAtSqrtRatio(sqrtPrice, sqrtAt);
    }
  }
  if (remaining !== 0n) return { kind: 'exhausted' };
  return exactIn
    ? { kind: 'done', amountIn: amount, amountOut: calculated, sqrtPriceAfter: sqrtPrice, ticksCrossed }
    : { kind: 'done', amountIn: calculated, amountOut: -amount, sqrtPriceAfter: sqrtPrice, ticksCrossed };
}

type NextTick = { kind: 'tick'; tick: number; initialized: boolean } | { kind: 'needs-word'; word: number };

/**
 * The next initialized tick within the current bitmap word in the swap's direction, or the word's edge when
 * there is none (the pools' TickBitmap.nextInitializedTickWithinOneWord).
 */
function nextInitializedTick(pool: V3PoolSnapshot, tick: number, lte: boolean): NextTick {
  const spacing = pool.tickSpacing;
  // Floor division: compressed ticks round towards negative infinity.
  const compressed = Math.floor(tick / spacing);
  const position = lte ? compressed : compressed + 1;
  const word = position >> 8;
  const bitPos = position & 0xff;
  const bits = pool.words.get(word);
  if (bits === undefined) return { kind: 'needs-word', word };
  if (lte) {
    // Bits at or below bitPos.
    const masked = bits & ((1n << BigInt(bitPos + 1)) - 1n);
    if (masked === 0n) return { kind: 'tick', tick: (compressed - bitPos) * spacing, initialized: false };
    return {
      kind: 'tick',
      tick: (compressed - (bitPos - mostSignificantBit(masked))) * spacing,
      initialized: true,
    };
  }
  // Bits at or above bitPos.
  const masked = bits & ~((1n << BigInt(bitPos)) - 1n);
  if (masked === 0n) return { kind: 'tick', tick: (position + (255 - bitPos)) * spacing, initialized: false };
  return {
    kind: 'tick',
    tick: (position + (leastSignificantBit(masked) - bitPos)) * spacing,
    initialized: true,
  };
}

function mostSignificantBit(x: bigint): number {
  return x.toString(2).length - 1;
}

function leastSignificantBit(x: bigint): number {
  return mostSignificantBit(x & -x);
}
