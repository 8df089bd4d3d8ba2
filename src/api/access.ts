/**
 * Access control: `X-Access-Key` → project, with a short cache so a busy key costs no database read
 * per request, and the per-key rate limit.
 */
import { LRUCache } from 'lru-cache';
import { AccessKeyNotFoundError, MissingAccessKeyError, RateLimitedError } from './errors/rpc-errors.ts';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limiter.ts';

export interface ResolvedAccessKey {
  projectId: number;
  /** The key's own limit; absent means the server default. */
  rateLimit?: RateLimit;
}

export type ResolveAccessKey = (
  key: string,
) => Promise<ResolvedAccessKey | undefined> | ResolvedAccessKey | undefined;

/** How long a resolved (or unknown) key is remembered: a revoked key stops working within this time. */
export const ACCESS_KEY_CACHE_TTL_MS = 5_000;
/** Upper bound on cached keys, so a flood of random keys cannot grow memory without limit. */
const ACCESS_KEY_CACHE_MAX = 10_000;
/** Longer header values are not keys; refuse them without a lookup. */
const MAX_ACCESS_KEY_LENGTH = 256;

export interface AccessControl {
  authorize(key: string | undefined, method: string): Promise<ResolvedAccessKey>;
}

export function createAccessControl(options: {
  resolveAccessKey: ResolveAccessKey;
  /** `false` turns rate limiting off (benchmarks); default DEFAULT_RATE_LIMIT. */
  rateLimit?: RateLimit | false;
  now?: () => number;
}): AccessControl {
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter(now);
  // Concurrent requests with the same key share one lookup; an unknown key is remembered too (as
  // `resolved: undefined`), so a flood of one bad key costs one read per TTL. The least recently used
  // key goes first once full.
  const cache = new LRUCache<string, { resolved: ResolvedAccessKey | undefined }, undefined>({
    max: ACCESS_KEY_CACHE_MAX,
    ttl: ACCESS_KEY_CACHE_TTL_MS,
    // The clock is read on every check (cheaper than the 1 ms reading lru-cache would keep, with its timer).
    ttlResolution: 0,
    perf: { now },
    fetchMethod: async (key) => ({ resolved: await options.resolveAccessKey(key) }),
  });
  const resolve = async (key: string) => (cache.get(key) ?? (await cache.fetch(key)))?.resolved;

  return {
    async authorize(key, method) {
      if (!key) throw new MissingAccessKeyError(method);
      if (key.length > MAX_ACCESS_KEY_LENGTH) throw new AccessKeyNotFoundError();
      const resolved = await resolve(key);
      if (!resolved) throw new AccessKeyNotFoundError();
      if (options.rateLimit !== false) {
        const limit = resolved.rateLimit ?? options.rateLimit ?? DEFAULT_RATE_LIMIT;
        const wait = limiter.take(key, limit);
        if (wait > 0) throw new RateLimitedError(wait, limit.perSecond);
      }
      return resolved;
    },
  };
}
