/**
 * The amounts of a route: walks the legs forwards (EXACT_INPUT: from the deposit after fees) or backwards
 * (EXACT_OUTPUT: from the wanted output), quoting each provider from current on-chain state.
 *
 * Across chains the order's outputAmount is committed at quote time, so an origin swap before the bridge is
 * sized at its slippage minimum: EXACT_INPUT locks `minOut` (any better swap result is swept back to the owner
 * on the origin chain); EXACT_OUTPUT buys exactly the locked amount with at most `maxIn`.
 */
import type { BridgeProvider, BridgeQuote, SwapQuote, SwapRouter, TradeType } from '../../providers/types.ts';
import { minusSlippage, plusSlippage } from './money.ts';
import type { RouteShape, SwapLeg } from './resolve-route.ts';

export interface LegAmounts {
  /** What the origin spends on the route (after the collector fee): the wrap/swap/lock input. */
  routeInput: bigint;
  /** EXACT_OUTPUT: the expected input of the origin swap (routeInput is its maximum). */
  expectedRouteInput: bigint;
  originSwap?: SwapQuote | undefined;
  /** Cross-chain: the committed lock (order inputAmount). */
  bridge?: BridgeQuote | undefined;
  destinationSwap?: SwapQuote | undefined;
  toAmount: bigint;
  toAmountMin: bigint;
}

export interface QuoteLegsDeps {
  swap: SwapRouter;
  bridge: BridgeProvider;
  /** What gas costs in a leg's input token, so its routes are compared net of gas (quote-legs.ts). */
  gasValue?: ((leg: SwapLeg) => (gas: bigint) => bigint) | undefined;
  /** Quote these legs' routes again (same paths and shares) instead of choosing routes. */
  previous?: LegAmounts | undefined;
}

function quoteSwap(
  deps: QuoteLegsDeps,
  leg: SwapLeg,
  which: 'originSwap' | 'destinationSwap',
  tradeType: TradeType,
  amount: bigint,
) {
  return deps.swap.quote({
    chain: leg.chain,
    tokenIn: leg.tokenIn,
    tokenOut: leg.tokenOut,
    tradeType,
    amount,
    gasValue: deps.gasValue?.(leg),
    sameRouteAs: deps.previous?.[which],
  });
}

function quoteBridge(deps: QuoteLegsDeps, shape: RouteShape, tradeType: TradeType, amount: bigint) {
  const bridge = shape.bridge!;
  return deps.bridge.quote({
    originChain: shape.origin,
    destinationChain: shape.destination,
    inputToken: bridge.inputToken.address,
    outputToken: bridge.outputToken.address,
    tradeType,
    amount,
  });
}

/** EXACT_INPUT: `net` is the deposit minus the collector fee. */
export async function quoteExactInput(
  deps: QuoteLegsDeps,
  shape: RouteShape,
  net: bigint,
  slippage: bigint,
): Promise<LegAmounts> {
  const originSwap = shape.originSwap
    ? await quoteSwap(deps, shape.originSwap, 'originSwap', 'EXACT_INPUT', net)
    : undefined;
  const base = { routeInput: net, expectedRouteInput: net, originSwap };
  if (!shape.crossChain) {
    const out = originSwap?.amountOut ?? net;
    return { ...base, toAmount: out, toAmountMin: originSwap ? minusSlippage(out, slippage) : out };
  }
  const lock = originSwap ? minusSlippage(originSwap.amountOut, slippage) : net;
  const bridge = await quoteBridge(deps, shape, 'EXACT_INPUT', lock);
  const destinationSwap = shape.destinationSwap
    ? await quoteSwap(deps, shape.destinationSwap, 'destinationSwap', 'EXACT_INPUT', bridge.outputAmount)
    : undefined;
  const out = destinationSwap?.amountOut ?? bridge.outputAmount;
  const min = destinationSwap ? minusSlippage(out, slippage) : out;
  return { ...base, bridge, destinationSwap, toAmount: out, toAmountMin: min };
}

/** EXACT_OUTPUT: `wanted` must arrive; returns the route input the deposit must cover before fees. */
export async function quoteExactOutput(
  deps: QuoteLegsDeps,
  shape: RouteShape,
  wanted: bigint,
  slippage: bigint,
): Promise<LegAmounts> {
  const fixed = { toAmount: wanted, toAmountMin: wanted };
  if (!shape.crossChain) {
    const originSwap = shape.originSwap
      ? await quoteSwap(deps, shape.originSwap, 'originSwap', 'EXACT_OUTPUT', wanted)
      : undefined;
    const routeInput = originSwap ? plusSlippage(originSwap.amountIn, slippage) : wanted;
    return { ...fixed, routeInput, expectedRouteInput: originSwap?.amountIn ?? wanted, originSwap };
  }
  const destinationSwap = shape.destinationSwap
    ? await quoteSwap(deps, shape.destinationSwap, 'destinationSwap', 'EXACT_OUTPUT', wanted)
    : undefined;
  const delivered = destinationSwap ? plusSlippage(destinationSwap.amountIn, slippage) : wanted;
  const bridge = await quoteBridge(deps, shape, 'EXACT_OUTPUT', delivered);
  const originSwap = shape.originSwap
    ? await quoteSwap(deps, shape.originSwap, 'originSwap', 'EXACT_OUTPUT', bridge.inputAmount)
    : undefined;
  const routeInput = originSwap ? plusSlippage(originSwap.amountIn, slippage) : bridge.inputAmount;
  const expectedRouteInput = originSwap?.amountIn ?? bridge.inputAmount;
  return { ...fixed, routeInput, expectedRouteInput, originSwap, bridge, destinationSwap };
}
