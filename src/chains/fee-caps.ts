/**
 * The fees a transaction is signed with, from the chain's fees and the operator's per-chain ceiling
 * (`maxFeePerGasGwei` in the config, here in wei): never above the ceiling, and a transaction the chain
 * would not include under it waits instead of going out.
 *
 * - EIP-1559: maxFeePerGas = min(BASE_FEE_HEADROOM × base fee + tip, cap); the tip is the node's, cut to
 *   what the cap leaves above the base fee. It waits while the latest base fee is above the cap (no
 *   transaction under the cap could be included).
 * - Legacy: gasPrice = the node's gas price; it waits while that is above the cap.
 * - A stuck transaction is replaced with both fees × 5/4 + 1 wei, cut to the cap; when the cap leaves less
 *   than the +10 % nodes demand of a replacement, there is no replacement and the transaction waits as it is.
 */
import type { ChainFees } from './chain-fees.ts';
import {
  BASE_FEE_HEADROOM,
  MIN_REPLACEMENT_BUMP_DENOMINATOR,
  MIN_REPLACEMENT_BUMP_NUMERATOR,
  REPLACEMENT_FEE_DENOMINATOR,
  REPLACEMENT_FEE_NUMERATOR,
} from './sender-constants.ts';

export type SignedFees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

/** The chain asks more than the cap: what it asks (base fee, or legacy gas price) and the cap (wei). */
export interface OverCap {
  overCap: { price: bigint; cap: bigint };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The fees to sign with now, or why the transaction must wait. `cap` absent: no ceiling. */
export function feesToSign(chain: ChainFees, cap?: bigint): SignedFees | OverCap {
  if (chain.type === 'legacy') {
    if (cap !== undefined && chain.gasPrice > cap) return { overCap: { price: chain.gasPrice, cap } };
    return { type: 'legacy', gasPrice: chain.gasPrice };
  }
  const { baseFeePerGas: base, maxPriorityFeePerGas: tip } = chain;
  const wanted = base * BASE_FEE_HEADROOM + tip;
  if (cap === undefined) return { type: 'eip1559', maxFeePerGas: wanted, maxPriorityFeePerGas: tip };
  if (base > cap) return { overCap: { price: base, cap } };
  const maxFeePerGas = min(wanted, cap);
  return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas: min(tip, maxFeePerGas - base) };
}

const bump = (v: bigint) => (v * REPLACEMENT_FEE_NUMERATOR) / REPLACEMENT_FEE_DENOMINATOR + 1n;
/** A node accepts a replacement only when each fee rose by at least this fraction (geth: 10 %). */
const acceptable = (next: bigint, previous: bigint) =>
  next * MIN_REPLACEMENT_BUMP_DENOMINATOR >= previous * MIN_REPLACEMENT_BUMP_NUMERATOR && next > previous;

/** The fees of a replacement for a transaction signed with `previous`, or undefined when the cap leaves no room. */
export function replacementFees(previous: SignedFees, cap?: bigint): SignedFees | undefined {
  const capped = (v: bigint) => (cap === undefined ? v : min(v, cap));
  if (previous.type === 'legacy') {
    const gasPrice = capped(bump(previous.gasPrice));
    return acceptable(gasPrice, previous.gasPrice) ? { type: 'legacy', gasPrice } : undefined;
  }
  const maxFeePerGas = capped(bump(previous.maxFeePerGas));
  const maxPriorityFeePerGas = min(bump(previous.maxPriorityFeePerGas), maxFeePerGas);
  if (!acceptable(maxFeePerGas, previous.maxFeePerGas)) return undefined;
  if (!acceptable(maxPriorityFeePerGas, previous.maxPriorityFeePerGas)) return undefined;
  return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas };
}

/** The most a transaction signed with these fees pays per gas (wei). */
export function feeCeiling(fees: SignedFees): bigint {
  return fees.type === 'legacy' ? fees.gasPrice : fees.maxFeePerGas;
}
