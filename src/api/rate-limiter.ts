/**
 * Per-key token buckets. A bucket holds up to `burst` tokens and refills at `perSecond`; each request
 * takes one. State lives in the limiter instance (one per server), never in the module.
 */
import { LRUCache } from 'lru-cache';

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed in a burst above the sustained rate. */
  burst: number;
}

/**
 * Default for a key that carries no limit of its own: 10 requests/s (the store's default of 600 per
 * minute), enough for a wallet polling receipts every 150 ms; bursts of two seconds' worth.
 */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 10, burst: 20 };

/** A key row's requests-per-minute as a bucket: that sustained rate, bursts of two seconds' worth. */
export function rateLimitFromPerMinute(perMinute: number): RateLimit {
  const perSecond = perMinute / 60;
  return { perSecond, burst: Math.max(1, Math.ceil(perSecond * 2)) };
}

/**
 * Buckets kept. A bucket idle for burst/perSecond seconds is full again, so it expires then; only keys
 * used within that window (2 s by default) compete for a place, and a bucket evicted early starts full.
 */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  updatedMs: number;
  limit: RateLimit;
}

export interface RateLimiter {
  /** Takes a token; returns 0 when allowed, else the whole seconds to wait before retrying. */
  take(key: string, limit: RateLimit): number;
  /** What `take` would answer, without taking: 0 when a token is there, else the whole seconds to wait. */
  wait(key: string, limit: RateLimit): number;
}

export function createRateLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new LRUCache<string, Bucket>({
    max: MAX_BUCKETS,
    // Each bucket is set with its own TTL; the clock is read on every check (see access.ts).
    ttlResolution: 0,
    perf: { now },
  });

  const tokensAt = (bucket: Bucket, ms: number, limit: RateLimit) =>
    Math.min(limit.burst, bucket.tokens + ((ms - bucket.updatedMs) / 1000) * limit.perSecond);
  const secondsUntilOne = (tokens: number, limit: RateLimit) =>
    Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));

  return {
    take(key, limit) {
      const ms = now();
      let bucket = buckets.get(key);
      if (!bucket) bucket = { tokens: limit.burst, updatedMs: ms, limit };
      bucket.tokens = tokensAt(bucket, ms, limit);
      bucket.updatedMs = ms;
      bucket.limit = limit;
      buckets.set(key, bucket, { ttl: Math.ceil((limit.burst / limit.perSecond) * 1000) });
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return secondsUntilOne(bucket.tokens, limit);
    },
    wait(key, limit) {
      const bucket = buckets.get(key);
      if (!bucket) return 0;
      const tokens = tokensAt(bucket, now(), limit);
      return tokens >= 1 ? 0 : secondsUntilOne(tokens, limit);
    },
  };
}
