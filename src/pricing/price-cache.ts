/**
 * A time-boxed memo of price reads: one entry per (chain, token) with the time it was read. Concurrent
 * misses for the same token share one read, so a burst of requests never multiplies RPC calls.
 */
export interface CachedPrice {
  priceUsd: number | undefined;
  /** When the price was read (ms since the epoch). */
  readAt: number;
}

export interface PriceCache {
  /** The cached price if younger than the TTL, else the result of `read` (stored with its time). */
  get(key: string, read: () => Promise<number | undefined>): Promise<CachedPrice>;
  /** The entry as it stands, fresh or not (for `updatedAt`). */
  peek(key: string): CachedPrice | undefined;
}

export function createPriceCache(deps: { ttlMs: number; now: () => number }): PriceCache {
  const entries = new Map<string, CachedPrice>();
  const inFlight = new Map<string, Promise<CachedPrice>>();
  return {
    get(key, read) {
      const hit = entries.get(key);
      if (hit && deps.now() - hit.readAt < deps.ttlMs) return Promise.resolve(hit);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const readAt = deps.now();
      const promise = read()
        .then((priceUsd) => {
          const entry = { priceUsd, readAt };
          entries.set(key, entry);
          return entry;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise;
    },
    peek: (key) => entries.get(key),
  };
}
