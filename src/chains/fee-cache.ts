/**
 * EIP-1559 fee caps per chain, shared by the sends of one FEE_CACHE_MS window: under load every send
 * read the latest block and the priority fee (two round trips) although the answer moves once a block.
 * Concurrent sends share one read in flight; a failed read is not kept.
 */
import { FEE_CACHE_MS } from './sender-constants.ts';

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface FeeCache {
  get(chainId: number, read: () => Promise<Fees>): Promise<Fees>;
}

export function createFeeCache(ttlMs: number = FEE_CACHE_MS, now: () => number = Date.now): FeeCache {
  const entries = new Map<number, { at: number; fees: Promise<Fees> }>();
  return {
    get(chainId, read) {
      const cached = entries.get(chainId);
      if (cached && now() - cached.at < ttlMs) return cached.fees;
      const fees = read();
      const entry = { at: now(), fees };
      entries.set(chainId, entry);
      fees.catch(() => {
        if (entries.get(chainId) === entry) entries.delete(chainId);
      });
      return fees;
    },
  };
}
