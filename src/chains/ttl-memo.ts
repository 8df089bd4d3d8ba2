/**
 * One read shared by every caller of the same key for `ttlMs`: concurrent callers share the read in flight,
 * and a failed read is not kept (the next caller reads again). lru-cache's `fetch` does all three; the read
 * of the caller that starts it travels as the fetch's context.
 */
import { LRUCache } from 'lru-cache';

/** Keys one memo keeps: its callers key by chain or by chain and operator key, far fewer than this. */
const MAX_KEYS = 4_096;

export interface TtlMemo<K extends {}, V extends {}> {
  get(key: K, read: () => Promise<V>): Promise<V>;
}

/** `now` (ms, monotonic or wall clock) replaces the cache's clock, for tests. */
export function createTtlMemo<K extends {}, V extends {}>(ttlMs: number, now?: () => number): TtlMemo<K, V> {
  const cache = new LRUCache<K, V, () => Promise<V>>({
    max: MAX_KEYS,
    ttl: ttlMs,
    ...(now && { perf: { now } }),
    // The clock is read on every check: lru-cache would otherwise reuse a reading for 1 ms (and arm a timer
    // to forget it), which a test that moves the clock would not see.
    ttlResolution: 0,
    fetchMethod: (_key, _stale, { context: read }) => read(),
  });
  // The reads never resolve to undefined (a block, fees, a nonce), so neither does the fetch.
  return { get: (key, read) => cache.fetch(key, { context: read }) as Promise<V> };
}
