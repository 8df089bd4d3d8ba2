/**
 * The chain's fees (base fee and tip, or legacy gas price) per chain, shared by the sends of one
 * FEE_CACHE_MS window: under load every send read the latest block and the priority fee (two round trips)
 * although the answer moves once a block. Concurrent sends share one read in flight; a failed read is not
 * kept.
 */
import type { ChainFees } from './chain-fees.ts';
import { FEE_CACHE_MS } from './sender-constants.ts';
import { createTtlMemo, type TtlMemo } from './ttl-memo.ts';

export type FeeCache = TtlMemo<number, ChainFees>;

export function createFeeCache(ttlMs: number = FEE_CACHE_MS, now: () => number = Date.now): FeeCache {
  return createTtlMemo<number, ChainFees>(ttlMs, now);
}
