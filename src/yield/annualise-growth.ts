/**
 * The reward rate from two share-price samples: the growth of the price between them, compounded over a
 * year (an APY, as the spec's "current APY as a decimal fraction" asks):
 *
 *   rate = (p₁ / p₀)^(SECONDS_PER_YEAR / (t₁ − t₀)) − 1
 *
 * computed as expm1(log1p(g) × year / Δt) with g = (p₁ − p₀) / p₀, which keeps full precision for the tiny
 * per-block growth of a real vault (1 + 1e-9 would lose most of g's digits in a float).
 */
import { SECONDS_PER_YEAR } from './constants.ts';
import type { PriceSample } from './types.ts';

export function annualiseGrowth(from: PriceSample, to: PriceSample): number {
  const seconds = Number(to.timestamp - from.timestamp);
  if (seconds <= 0 || from.assetsPerScaledShare === 0n) return 0;
  const growth =
    Number(to.assetsPerScaledShare - from.assetsPerScaledShare) / Number(from.assetsPerScaledShare);
  // A price that fell to nothing has lost everything; log1p(-1) would be -Infinity.
  if (growth <= -1) return -1;
  return Math.expm1((Math.log1p(growth) * SECONDS_PER_YEAR) / seconds);
}
