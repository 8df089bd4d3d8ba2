/** Amount arithmetic: slippage, USD values and conversion between tokens through USD prices, in bigint. */
import { formatUnits } from 'viem';
import { PRICE_SCALE, SLIPPAGE_SCALE } from './constants.ts';
import { MissingPriceError } from './errors.ts';

export function slippageParts(fraction: number): bigint {
  return BigInt(Math.round(fraction * Number(SLIPPAGE_SCALE)));
}

/** The least an amount may become within the tolerance (rounded down). */
export function minusSlippage(amount: bigint, parts: bigint): bigint {
  return (amount * (SLIPPAGE_SCALE - parts)) / SLIPPAGE_SCALE;
}

/** The most an amount may become within the tolerance (rounded up). */
export function plusSlippage(amount: bigint, parts: bigint): bigint {
  return ceilDiv(amount * (SLIPPAGE_SCALE + parts), SLIPPAGE_SCALE);
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export interface Priced {
  decimals: number;
  priceUsd: number;
}

export function usdValue(amount: bigint, token: Priced): number {
  return Number(formatUnits(amount, token.decimals)) * token.priceUsd;
}

/** `amount` of `from` expressed in `to` at their USD prices, rounded up (fees never round in the user's favour against the operator). */
export function convert(amount: bigint, from: Priced, to: Priced): bigint {
  if (amount === 0n) return 0n;
  const fromPrice = scaledPrice(from.priceUsd);
  const toPrice = scaledPrice(to.priceUsd);
  return ceilDiv(amount * fromPrice * 10n ** BigInt(to.decimals), toPrice * 10n ** BigInt(from.decimals));
}

/** A price conversions can use: finite and positive once scaled to PRICE_SCALE (a smaller one rounds to zero). */
export function isUsablePrice(price: number): boolean {
  return Number.isFinite(price) && Math.round(price * Number(PRICE_SCALE)) > 0;
}

function scaledPrice(price: number): bigint {
  if (!isUsablePrice(price)) throw new MissingPriceError(`a price of ${price} USD cannot convert amounts`);
  return BigInt(Math.round(price * Number(PRICE_SCALE)));
}
