/**
 * The five-part price impact. Each part is a signed USD change relative to what the user spends (negative =
 * the user loses value) and a percentage of fromUsd:
 *   net          = toUsd − fromUsd
 *   execution    = −(value lost to pool depth beyond the LP fee)
 *   providerFees = −(LP fees + solver spread)
 *   serviceFees  = −(service fee + gas fee: everything the fee collector gets)
 *   market       = net − execution − providerFees − serviceFees (price-source vs. pool differences, slippage
 *                  reserve, rounding), so the four parts add up to net exactly.
 */
import type { PriceImpactBreakdown, PriceImpactPart } from './types.ts';

const PERCENT = 100;

export function priceImpact(p: {
  fromUsd: number;
  toUsd: number;
  executionLossUsd: number;
  providerFeesUsd: number;
  serviceFeesUsd: number;
}): PriceImpactBreakdown {
  const part = (usd: number): PriceImpactPart => ({
    priceImpactUsd: usd,
    priceImpact: p.fromUsd > 0 ? (usd / p.fromUsd) * PERCENT : 0,
  });
  const net = p.toUsd - p.fromUsd;
  const execution = -p.executionLossUsd;
  const providerFees = -p.providerFeesUsd;
  const serviceFees = -p.serviceFeesUsd;
  const market = net - execution - providerFees - serviceFees;
  return {
    execution: part(execution),
    market: part(market),
    providerFees: part(providerFees),
    serviceFees: part(serviceFees),
    net: part(net),
  };
}
