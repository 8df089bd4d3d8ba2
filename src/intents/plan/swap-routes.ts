/**
 * The swap legs as a quote shows them: the providers of each leg for `routeProviders` (a split leg names each
 * protocol it uses, largest part first, with that protocol's share of the LP fee), and per leg the route
 * breakdown (`swapRoutes`): parts, their amounts and limits, and the alternatives' outputs. The limits are
 * the ones the swap calls enforce (build-intents.ts asks swapLimits for the same numbers).
 */

import type { ProviderId, SwapQuote } from '../../providers/types.ts';
import { partLimits } from '../../providers/uniswap-swap-router02-calls.ts';
import type { LegAmounts } from './quote-amounts.ts';
import type { RouteShape } from './resolve-route.ts';
import type { SwapRouteSummary } from './types.ts';

/** The leg's providers in order of their parts' size, each with its parts' LP fees (in the leg's tokenIn). */
export function swapLegProviders(quote: SwapQuote): { provider: ProviderId; feeAmount: bigint }[] {
  const out: { provider: ProviderId; feeAmount: bigint }[] = [];
  for (const part of quote.parts) {
    const entry = out.find((e) => e.provider === part.provider);
    if (entry) entry.feeAmount += part.feeAmount;
    else out.push({ provider: part.provider, feeAmount: part.feeAmount });
  }
  return out;
}

/**
 * The limits of a swap leg's calls: EXACT_INPUT the least output (the route's minimum, or the lock an origin
 * swap before the bridge must produce), EXACT_OUTPUT the exact output and the most input (what the account
 * holds for the swap: the route input on the origin, the bridged amount on the destination).
 */
export function swapLimits(
  which: 'originSwap' | 'destinationSwap',
  legs: LegAmounts,
  shape: Pick<RouteShape, 'crossChain'>,
): { amountOutLimit: bigint; amountInLimit: bigint } {
  const quote = legs[which]!;
  const beforeBridge = which === 'originSwap' && shape.crossChain;
  const exactIn = quote.tradeType === 'EXACT_INPUT';
  const amountOutLimit = beforeBridge ? legs.bridge!.inputAmount : exactIn ? legs.toAmountMin : legs.toAmount;
  const amountInLimit = which === 'originSwap' ? legs.routeInput : legs.bridge!.outputAmount;
  return { amountOutLimit, amountInLimit };
}

export function swapRoutesOf(legs: LegAmounts, shape: Pick<RouteShape, 'crossChain'>): SwapRouteSummary[] {
  const out: SwapRouteSummary[] = [];
  for (const which of ['originSwap', 'destinationSwap'] as const) {
    const quote = legs[which];
    if (!quote) continue;
    const limits = partLimits({ quote, ...swapLimits(which, legs, shape) });
    out.push({
      leg: which === 'originSwap' ? 'origin' : 'destination',
      chainId: quote.chainId,
      tokenIn: quote.tokenIn,
      tokenOut: quote.tokenOut,
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      gasEstimate: quote.gasEstimate,
      parts: quote.parts.map((part, i) => ({
        provider: part.provider,
        tokens: part.tokens,
        pools: part.pools,
        fees: part.fees,
        amountIn: part.amountIn,
        amountOut: part.amountOut,
        limit: limits[i]!,
      })),
      alternatives: quote.alternatives ?? [],
    });
  }
  return out;
}
