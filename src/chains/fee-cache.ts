/**
 * EIP-1559 fee caps per chain, shared by the sends of one FEE_CACHE_MS window: under load every send
 * read the latest block and the priority fee (two round trips) although the answer moves once a block.
 * Concurrent sends share one read in flight; a failed read is not kept.
 */
import { FEE_CACHE_MS } from './sender-constants.ts';
import { createTtlMemo, type TtlMemo } from './ttl-memo.ts';

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export type FeeCache = TtlMemo<number, Fees>;

export function createFeeCache(ttlMs: number = FEE_CACHE_MS, now: () => number = Date.now): FeeCache {
  return createTtlMemo<number, Fees>(ttlMs, now);
}
