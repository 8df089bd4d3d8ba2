/**
 * Uniswap V3 price and amount arithmetic on Q64.96 square-root prices, with the pools' rounding (in the pool's
 * favour) and the pools' 256-bit overflow branches, so that results match the chain to the base unit.
 * Names follow the pools' SqrtPriceMath; the amount functions are the token deltas between two prices at a
 * given liquidity.
 */

export const Q96 = 1n << 96n;
const MAX_UINT160 = (1n << 160n) - 1n;
const UINT256_LIMIT = 1n << 256n;

export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  return (a * b) / denominator;
}

export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const product = a * b;
  const result = product / denominator;
  return product % denominator === 0n ? result : result + 1n;
}

function divRoundingUp(a: bigint, b: bigint): bigint {
  return a / b + (a % b === 0n ? 0n : 1n);
}

/** Token0 between two prices at `liquidity`: L·(√b − √a)/(√a·√b). */
export function amount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  const numerator1 = liquidity << 96n;
  const numerator2 = upper - lower;
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower;
}

/** Token1 between two prices at `liquidity`: L·(√b − √a). */
export function amount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  return roundUp ? mulDivRoundingUp(liquidity, upper - lower, Q96) : mulDiv(liquidity, upper - lower, Q96);
}

/** The price after adding (or removing) `amount` of token0, rounded up. */
function nextPriceFromAmount0(sqrtP: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return sqrtP;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtP;
  if (add) {
    // The pool takes the precise form when amount·√P and the denominator fit 256 bits, else a cruder one.
    if (product < UINT256_LIMIT && numerator1 + product < UINT256_LIMIT) {
      return mulDivRoundingUp(numerator1, sqrtP, numerator1 + product);
    }
    return divRoundingUp(numerator1, numerator1 / sqrtP + amount);
  }
  if (product >= UINT256_LIMIT || numerator1 <= product) {
    throw new RangeError('the output exceeds the token0 the price range holds');
  }
  return mulDivRoundingUp(numerator1, sqrtP, numerator1 - product);
}

/** The price after adding (or removing) `amount` of token1, rounded down. */
function nextPriceFromAmount1(sqrtP: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (add) {
    const next = sqrtP + (amount << 96n) / liquidity;
    if (next > MAX_UINT160) throw new RangeError('the price leaves the uint160 range');
    return next;
  }
  const quotient = divRoundingUp(amount << 96n, liquidity);
  if (sqrtP <= quotient) throw new RangeError('the output exceeds the token1 the price range holds');
  return sqrtP - quotient;
}

export function nextPriceFromInput(sqrtP: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean) {
  return zeroForOne
    ? nextPriceFromAmount0(sqrtP, liquidity, amountIn, true)
    : nextPriceFromAmount1(sqrtP, liquidity, amountIn, true);
}

export function nextPriceFromOutput(
  sqrtP: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
) {
  return zeroForOne
    ? nextPriceFromAmount1(sqrtP, liquidity, amountOut, false)
    : nextPriceFromAmount0(sqrtP, liquidity, amountOut, false);
}
