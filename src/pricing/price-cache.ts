/**
 * A time-boxed memo of price reads: one entry per (chain, token) with the time it was read. Concurrent
 * misses for the same token share one read, so a burst of requests never multiplies RPC calls. lru-cache
 * bounds it (a request can name any token) and shares the read in flight; freshness is counted here from
 * the entry's own read time, the time `updatedAt` reports.
 */
import { LRUCache } from 'lru-cache';
import { PRICE_CACHE_MAX_TOKENS } from './constants.ts';

export interface CachedPrice {
  priceUsd: number | undefined;
  /** When the price was read (ms since the epoch). */
  readAt: number;
}

type Read = () => Promise<number | undefined>;

export interface PriceCache {
  /** The cached price if younger than the TTL, else the result of `read` (stored with its time). */
  get(key: string, read: Read): Promise<CachedPrice>;
  /** The entry as it stands, fresh or not (for `updatedAt`); while a new read runs, the older entry. */
  peek(key: string): CachedPrice | undefined;
}

export function createPriceCache(deps: { ttlMs: number; now: () => number; maxTokens?: number }): PriceCache {
  const entries = new LRUCache<string, CachedPrice, Read>({
    max: deps.maxTokens ?? PRICE_CACHE_MAX_TOKENS,
    // A failed read leaves the older price and its time in place.
    noDeleteOnFetchRejection: true,
    fetchMethod: async (_key, _older, { context: read }) => {
      const readAt = deps.now();
      return { priceUsd: await read(), readAt };
    },
  });
  return {
    get(key, read) {
      const hit = entries.get(key);
      if (hit && deps.now() - hit.readAt < deps.ttlMs) return Promise.resolve(hit);
      // A read already in flight is shared, whatever `forceRefresh` says; the fetch never gives undefined.
      return entries.fetch(key, { context: read, forceRefresh: true }) as Promise<CachedPrice>;
    },
    peek: (key) => entries.peek(key),
  };
}
