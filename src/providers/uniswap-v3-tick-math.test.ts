/**
 * The tick math's fixed points: the pools' published price bounds at the tick bounds, 1.0 at tick 0, the
 * inverse at every tick a swap can stop on, and prices that agree with 1.0001^tick to float precision.
 * Equality with the chain's own arithmetic is checked against QuoterV2 in test/routing/uniswap-v3-math.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from './uniswap-v3-tick-math.ts';

const Q96 = 2 ** 96;

describe('Uniswap V3 tick math', () => {
  it('maps the tick bounds to the price bounds and tick 0 to 1.0', () => {
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    expect(sqrtRatioAtTick(0)).toBe(1n << 96n);
    expect(() => sqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError);
  });

  it('agrees with √1.0001^tick to float precision across the range', () => {
    for (let tick = MIN_TICK; tick <= MAX_TICK; tick += 7919) {
      const expected = Math.sqrt(1.0001 ** tick);
      const actual = Number(sqrtRatioAtTick(tick)) / Q96;
      expect(Math.abs(actual / expected - 1)).toBeLessThan(1e-9);
    }
  });

  it('finds the tick of a price: the greatest tick at or below it', () => {
    for (const tick of [MIN_TICK, -276_325, -195_000, -1, 0, 1, 60, 80_067, MAX_TICK - 1]) {
      const price = sqrtRatioAtTick(tick);
      expect(tickAtSqrtRatio(price)).toBe(tick);
      expect(tickAtSqrtRatio(price + 1n)).toBe(tick);
      if (tick > MIN_TICK) expect(tickAtSqrtRatio(price - 1n)).toBe(tick - 1);
    }
  });
});
