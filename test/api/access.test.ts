/**
 * Access control on its own: the key cache (what a lookup costs, when a revoked key stops working, what a
 * flood of unknown keys does to it) and the per-key token buckets. The wire form of these errors is in
 * errors.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCESS_KEY_CACHE_TTL_MS,
  createAccessControl,
  type ResolvedAccessKey,
} from '../../src/api/access.ts';

/** Any clock reading but 0 (which lru-cache takes for "no start time"). */
const START_MS = 1_000_000;
const METHOD = 'GetIntentReceipt';

function setup(options: { rateLimit?: { perSecond: number; burst: number } | false } = {}) {
  const clock = { ms: START_MS };
  const keys = new Map<string, ResolvedAccessKey>([['sy_good', { projectId: 7 }]]);
  const lookups: string[] = [];
  const access = createAccessControl({
    resolveAccessKey: async (key) => {
      lookups.push(key);
      await new Promise((resolve) => setImmediate(resolve));
      return keys.get(key);
    },
    rateLimit: options.rateLimit ?? false,
    now: () => clock.ms,
  });
  return { clock, keys, lookups, access };
}

describe('access control', () => {
  it('looks a key up once for concurrent requests and for the TTL; a revoked key stops working after it', async () => {
    const { clock, keys, lookups, access } = setup();
    const first = await Promise.all([1, 2, 3].map(() => access.authorize('sy_good', METHOD)));
    expect(first).toEqual([{ projectId: 7 }, { projectId: 7 }, { projectId: 7 }]);
    keys.delete('sy_good');
    clock.ms += ACCESS_KEY_CACHE_TTL_MS - 1;
    expect(await access.authorize('sy_good', METHOD)).toEqual({ projectId: 7 });
    expect(lookups).toEqual(['sy_good']);
    clock.ms += 2;
    await expect(access.authorize('sy_good', METHOD)).rejects.toMatchObject({ rpc: 'AccessKeyNotFound' });
    expect(lookups).toEqual(['sy_good', 'sy_good']);
  });

  it('remembers an unknown key too, and refuses a missing one without a lookup', async () => {
    const { lookups, access } = setup();
    for (let i = 0; i < 3; i++) {
      await expect(access.authorize('sy_nobody', METHOD)).rejects.toMatchObject({ rpc: 'AccessKeyNotFound' });
    }
    await expect(access.authorize(undefined, METHOD)).rejects.toMatchObject({ rpc: 'Unauthorized' });
    expect(lookups).toEqual(['sy_nobody']);
  });

  it('keeps a key in use cached through a flood of unknown keys larger than the cache', async () => {
    const { lookups, access } = setup();
    for (let i = 0; i < 12_000; i++) {
      if (i % 100 === 0) await access.authorize('sy_good', METHOD);
      await access.authorize(`sy_flood${i}`, METHOD).catch(() => {});
    }
    expect(lookups.filter((key) => key === 'sy_good')).toHaveLength(1);
  });

  it("limits each key to its bucket: a burst, then RateLimited with the wait, then the refill's worth", async () => {
    const { clock, access } = setup({ rateLimit: { perSecond: 2, burst: 3 } });
    for (let i = 0; i < 3; i++) await access.authorize('sy_good', METHOD);
    await expect(access.authorize('sy_good', METHOD)).rejects.toMatchObject({
      rpc: 'RateLimited',
      retryAfterSeconds: 1,
    });
    clock.ms += 500;
    await access.authorize('sy_good', METHOD);
    await expect(access.authorize('sy_good', METHOD)).rejects.toMatchObject({ rpc: 'RateLimited' });
    // Idle for longer than a refill: the whole burst again, not more.
    clock.ms += 10_000;
    for (let i = 0; i < 3; i++) await access.authorize('sy_good', METHOD);
    await expect(access.authorize('sy_good', METHOD)).rejects.toMatchObject({ rpc: 'RateLimited' });
  });
});
