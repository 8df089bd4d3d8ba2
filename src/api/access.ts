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
import { createLru } from '../internal/lru.ts';
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
  const cache = new Map<string, { value: ResolvedAccessKey | undefined; expiresMs: number }>();
  const known = createLru<string, true>({ maxWeight: KNOWN_KEYS_MAX, weigh: () => 1 });

  const resolve = async (key: string): Promise<ResolvedAccessKey | undefined> => {
    const hit = cache.get(key);
    const ms = now();
    if (hit && hit.expiresMs > ms) return hit.value;
    const value = await options.resolveAccessKey(key);
    if (cache.size >= ACCESS_KEY_CACHE_MAX) cache.clear();
    cache.set(key, { value, expiresMs: ms + ACCESS_KEY_CACHE_TTL_MS });
    return value;
  };

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
