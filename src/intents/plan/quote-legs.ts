/**
 * A route's legs with their swap routes chosen, and the gas fee that pays for exactly those routes.
 *
 * The gas fee depends on the routes (a split or a V3 path costs more gas than one V2 pair), and for
 * EXACT_INPUT the routes' input depends on the fee. So EXACT_INPUT runs in passes: the routes are chosen
 * against the fee without any swap gas, each route's own gas (valued in its input token) coming off what it
 * swaps; then the fee is priced for the chosen routes and the same routes (paths and shares) are quoted
 * again on what the deposit leaves. A requote that crosses more ticks costs more gas: the fee is priced again
 * until it covers the routes (the gas a leg is charged never goes down between passes). EXACT_OUTPUT needs
 * one pass: the routes are chosen by their input plus their gas, then the fee is priced for them.
 */
import type { BridgeProvider, SwapRouter } from '../../providers/types.ts';
import { InvalidAmountError } from './errors.ts';
import { convert, type Priced } from './money.ts';
import { type LegAmounts, quoteExactInput, quoteExactOutput } from './quote-amounts.ts';
import type { RouteShape, SwapLeg } from './resolve-route.ts';
import type { ChainGas } from './types.ts';

/** Passes of pricing the fee again after a requote; the gas of a requote rarely moves, two passes settle it. */
const MAX_FEE_PASSES = 3;

export interface PlanGas {
  origin: ChainGas;
  destination?: ChainGas | undefined;
}

export interface QuoteLegsInput {
  shape: RouteShape;
  swap: SwapRouter;
  bridge: BridgeProvider;
  slippage: bigint;
  /** The gas fee of a shape (every operator transaction, at the chains' gas prices, in the fee token). */
  gasOf(shape: RouteShape): Promise<PlanGas>;
  /** What the quote charges per gas on the leg's chain (fees.ts `quotedGasPrice`), and the USD prices of its native currency and its input token. */
  legPrices(leg: SwapLeg): Promise<{ gasPrice: bigint; native: Priced; tokenIn: Priced }>;
}

export interface QuotedLegs {
  /** The shape with each swap leg's gas set to its chosen route's. */
  shape: RouteShape;
  legs: LegAmounts;
  gas: PlanGas;
  gasFee: bigint;
}

export async function quoteLegsExactInput(
  input: QuoteLegsInput,
  deposit: bigint,
  serviceFee: bigint,
): Promise<QuotedLegs> {
  const { swap, bridge, slippage } = input;
  const gasValue = await gasValues(input);
  let shape = input.shape;
  let gas = await input.gasOf(shape);
  let legs = await quoteExactInput(
    { swap, bridge, gasValue },
    shape,
    covered(deposit, serviceFee, gas),
    slippage,
  );
  for (let pass = 0; pass < MAX_FEE_PASSES; pass++) {
    const routed = withRouteGas(shape, legs);
    if (
      pass > 0 &&
      routed.originSwap?.gas === shape.originSwap?.gas &&
      routed.destinationSwap?.gas === shape.destinationSwap?.gas
    ) {
      break;
    }
    shape = routed;
    gas = await input.gasOf(shape);
    legs = await quoteExactInput(
      { swap, bridge, previous: legs },
      shape,
      covered(deposit, serviceFee, gas),
      slippage,
    );
  }
  return { shape, legs, gas, gasFee: feeOf(gas) };
}

export async function quoteLegsExactOutput(input: QuoteLegsInput, wanted: bigint): Promise<QuotedLegs> {
  const { swap, bridge, slippage } = input;
  const legs = await quoteExactOutput(
    { swap, bridge, gasValue: await gasValues(input) },
    input.shape,
    wanted,
    slippage,
  );
  const shape = withRouteGas(input.shape, legs);
  const gas = await input.gasOf(shape);
  return { shape, legs, gas, gasFee: feeOf(gas) };
}

function feeOf(gas: PlanGas): bigint {
  return gas.origin.feeAmount + (gas.destination?.feeAmount ?? 0n);
}

/** What the deposit leaves for the route once the service and gas fees are paid; it must be positive. */
function covered(deposit: bigint, serviceFee: bigint, gas: PlanGas): bigint {
  const gasFee = feeOf(gas);
  const net = deposit - serviceFee - gasFee;
  if (net <= 0n) {
    throw new InvalidAmountError(
      `originTokenAmount: ${deposit} does not cover the fees (${serviceFee + gasFee} base units)`,
      {
        details: {
          field: 'originTokenAmount',
          expected: (serviceFee + gasFee + 1n).toString(),
          actual: deposit.toString(),
        },
      },
    );
  }
  return net;
}

/** Each swap leg's gas set to its route's; a leg never gets less gas than it was charged before. */
function withRouteGas(shape: RouteShape, legs: LegAmounts): RouteShape {
  const set = (leg: SwapLeg | undefined, routeGas: bigint | undefined) =>
    leg && routeGas !== undefined ? { ...leg, gas: routeGas > leg.gas ? routeGas : leg.gas } : leg;
  return {
    ...shape,
    originSwap: set(shape.originSwap, legs.originSwap?.gasEstimate),
    destinationSwap: set(shape.destinationSwap, legs.destinationSwap?.gasEstimate),
  };
}

/** Per swap leg, what gas units cost in its input token (at the gas price the quote charges). */
async function gasValues(input: QuoteLegsInput): Promise<(leg: SwapLeg) => (gas: bigint) => bigint> {
  const legs = [input.shape.originSwap, input.shape.destinationSwap].filter((l): l is SwapLeg => !!l);
  const values = new Map<SwapLeg, (gas: bigint) => bigint>();
  await Promise.all(
    legs.map(async (leg) => {
      const { gasPrice, native, tokenIn } = await input.legPrices(leg);
      values.set(leg, (gas) => convert(gas * gasPrice, native, tokenIn));
    }),
  );
  return (leg) => values.get(leg) ?? (() => 0n);
}
