/**
 * Access control: `X-Access-Key` → project, with a short cache so a busy key costs no database read
 * per request, the per-key rate limit, and a limit on failed authentications per client address.
 *
 * An unknown or revoked key costs a SHA-256 and a store lookup. Each one takes a token from its client
 * address's bucket (FAILED_AUTH_RATE_LIMIT); once the bucket is empty, keys from that address are refused
 * RateLimited before any hash or lookup, except keys this process has seen resolve (KNOWN_KEYS_MAX of
 * them, most recent first): a project's own key keeps working from an address that also sends bad ones,
 * subject to its own rate limit. A valid key this process has never seen waits for the bucket like any
 * other.
 */
import { LRUCache } from 'lru-cache';
import { clientAddressKey } from './client-address.ts';
import {
  AccessKeyNotFoundError,
  FailedAuthLimitedError,
  MissingAccessKeyError,
  RateLimitedError,
} from './errors/rpc-errors.ts';
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

/**
 * Failed authentications per client address: ten in a row (a mistyped or rotated key retried a few
 * times is answered AccessKeyNotFound, which says what is wrong), then one per second, so guessing keys
 * from one address costs us at most one hash and lookup per second.
 */
export const FAILED_AUTH_RATE_LIMIT: RateLimit = { perSecond: 1, burst: 10 };
/** Keys remembered as having resolved, so they pass a throttled address: far more than any server's live keys. */
const KNOWN_KEYS_MAX = 10_000;

export interface AccessControl {
  /** `clientAddress` is the caller's IP address (failed authentications are counted per address). */
  authorize(key: string | undefined, method: string, clientAddress?: string): Promise<ResolvedAccessKey>;
}

export function createAccessControl(options: {
  resolveAccessKey: ResolveAccessKey;
  /** `false` turns rate limiting off (benchmarks); default DEFAULT_RATE_LIMIT. */
  rateLimit?: RateLimit | false;
  /** Failed authentications per client address; `false` turns the limit off; default FAILED_AUTH_RATE_LIMIT. */
  failedAuthLimit?: RateLimit | false;
  now?: () => number;
}): AccessControl {
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter(now);
  const failures = createRateLimiter(now);
  const failedAuthLimit = options.failedAuthLimit ?? FAILED_AUTH_RATE_LIMIT;
  const known = new LRUCache<string, true>({ max: KNOWN_KEYS_MAX });
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

  const failed = (address: string): never => {
    if (failedAuthLimit !== false) failures.take(address, failedAuthLimit);
    throw new AccessKeyNotFoundError();
  };

  return {
    async authorize(key, method, clientAddress) {
      if (!key) throw new MissingAccessKeyError(method);
      const address = clientAddressKey(clientAddress);
      const isKnown = known.get(key) !== undefined;
      if (failedAuthLimit !== false && !isKnown) {
        const wait = failures.wait(address, failedAuthLimit);
        if (wait > 0) throw new FailedAuthLimitedError(wait, failedAuthLimit);
      }
      if (key.length > MAX_ACCESS_KEY_LENGTH) return failed(address);
      const resolved = await resolve(key);
      if (!resolved) {
        known.delete(key);
        return failed(address);
      }
      if (!isKnown) known.set(key, true);
      if (options.rateLimit !== false) {
        const limit = resolved.rateLimit ?? options.rateLimit ?? DEFAULT_RATE_LIMIT;
        const wait = limiter.take(key, limit);
        if (wait > 0) throw new RateLimitedError(wait, limit.perSecond);
      }
      return resolved;
    },
  };
}
