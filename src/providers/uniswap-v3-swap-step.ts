/**
 * One step of a Uniswap V3 swap inside a single liquidity range (the pools' SwapMath.computeSwapStep): from the
 * current price towards a target price, spending at most what remains to be swapped, with the LP fee taken
 * from the input.
 */
import {
  amount0Delta,
  amount1Delta,
  mulDiv,
  mulDivRoundingUp,
  nextPriceFromInput,
  nextPriceFromOutput,
} from './uniswap-v3-sqrt-price-math.ts';

/** Fees are in pips: hundredths of a basis point (3000 = 0.3 %). */
export const FEE_PIPS_DENOMINATOR = 1_000_000n;

export interface SwapStep {
  sqrtPriceNext: bigint;
  amountIn: bigint;
  amountOut: bigint;
  feeAmount: bigint;
}

/**
 * `remaining` > 0 is an exact input still to spend (fee included); < 0 an exact output still to receive.
 * The direction follows from the prices: a target below the current price sells token0.
 */
export function swapStep(
  sqrtCurrent: bigint,
  sqrtTarget: bigint,
  liquidity: bigint,
  remaining: bigint,
  feePips: bigint,
): SwapStep {
  const zeroForOne = sqrtCurrent >= sqrtTarget;
  const exactIn = remaining >= 0n;
  const toTargetIn = () =>
    zeroForOne
      ? amount0Delta(sqrtTarget, sqrtCurrent, liquidity, true)
      : amount1Delta(sqrtCurrent, sqrtTarget, liquidity, true);
  const toTargetOut = () =>
    zeroForOne
      ? amount1Delta(sqrtTarget, sqrtCurrent, liquidity, false)
      : amount0Delta(sqrtCurrent, sqrtTarget, liquidity, false);

  let sqrtNext: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const remainingLessFee = mulDiv(remaining, FEE_PIPS_DENOMINATOR - feePips, FEE_PIPS_DENOMINATOR);
    amountIn = toTargetIn();
    sqrtNext =
      remainingLessFee >= amountIn
        ? sqrtTarget
        : nextPriceFromInput(sqrtCurrent, liquidity, remainingLessFee, zeroForOne);
  } else {
    amountOut = toTargetOut();
    sqrtNext =
      -remaining >= amountOut
        ? sqrtTarget
        : nextPriceFromOutput(sqrtCurrent, liquidity, -remaining, zeroForOne);
  }
  const reachedTarget = sqrtNext === sqrtTarget;
  // At the target the amount towards it is already known; short of it, both sides are recomputed.
  if (zeroForOne) {
    if (!(reachedTarget && exactIn)) amountIn = amount0Delta(sqrtNext, sqrtCurrent, liquidity, true);
    if (!(reachedTarget && !exactIn)) amountOut = amount1Delta(sqrtNext, sqrtCurrent, liquidity, false);
  } else {
    if (!(reachedTarget && exactIn)) amountIn = amount1Delta(sqrtCurrent, sqrtNext, liquidity, true);
    if (!(reachedTarget && !exactIn)) amountOut = amount0Delta(sqrtCurrent, sqrtNext, liquidity, false);
  }
  // The output can come out one unit above what was asked for; never pay out more than that.
  if (!exactIn && amountOut > -remaining) amountOut = -remaining;
  const feeAmount =
    exactIn && sqrtNext !== sqrtTarget
      ? remaining - amountIn
      : mulDivRoundingUp(amountIn, feePips, FEE_PIPS_DENOMINATOR - feePips);
  return { sqrtPriceNext: sqrtNext, amountIn, amountOut, feeAmount };
}
