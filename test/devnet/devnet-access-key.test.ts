/**
 * The access key `switchyard start` makes for the devnet: a developer's own parallel integration tests are
 * never rate limited by it, keys made with `switchyard keys create` keep the default, and a devnet database
 * from before keeps its key with the new limit.
 */
import { RateLimitedError, TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiServer, createApiServer } from '../../src/api/server.ts';
import {
  DEVNET_KEY_RATE_LIMIT_PER_MINUTE,
  DEVNET_PROJECT,
  ensureDevnetAccessKey,
} from '../../src/app/ensure-devnet-access-key.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, type Store } from '../../src/store/index.ts';
import { CHAINS } from '../api/fixtures.ts';
import { describeEachDialect } from '../harness/database.ts';

/** Requests sent at once: five times the burst of a default key (20), far below the devnet key's (2,000). */
const PARALLEL_REQUESTS = 100;

describeEachDialect('the devnet access key', ({ openStore }) => {
  let store: Store;
  let server: ApiServer;
  let url: string;
  beforeAll(async () => {
    store = await openStore();
    // Production's limits: no `rateLimit` option, so each key's own limit applies.
    server = await createApiServer({ chains: CHAINS, store, log: createSilentLogger() });
    url = await server.listen(0, '127.0.0.1');
  });
  afterAll(() => server.close());

  const burst = async (key: string) => {
    const api = new TrailsApi(key, { hostname: url });
    const results = await Promise.allSettled(
      Array.from({ length: PARALLEL_REQUESTS }, () => api.getChains({})),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect(r.reason).toBeInstanceOf(RateLimitedError);
    return { answered: results.length - refused.length, refused: refused.length };
  };

  it('answers a burst of parallel requests with the devnet key; a `keys create` key is limited', async () => {
    const devnetKey = await ensureDevnetAccessKey(store);
    expect(await burst(devnetKey)).toEqual({ answered: PARALLEL_REQUESTS, refused: 0 });

    const project = await store.projects.ensure(DEVNET_PROJECT);
    const created = await store.accessKeys.create({ projectId: project.id, label: 'cli' });
    expect(created.accessKey.rateLimitPerMinute).toBe(DEFAULT_RATE_LIMIT_PER_MINUTE);
    expect((await burst(created.key)).refused).toBeGreaterThan(0);
  });

  it('keeps the key of a devnet database from before and raises its limit', async () => {
    const project = await store.projects.ensure(DEVNET_PROJECT);
    // What `switchyard start` stored before: a key with the default limit.
    const { key: old } = await store.accessKeys.create({ projectId: project.id, label: 'devnet' });
    expect(await ensureDevnetAccessKey(store, old)).toBe(old);
    expect((await store.accessKeys.resolve(old))?.rateLimitPerMinute).toBe(DEVNET_KEY_RATE_LIMIT_PER_MINUTE);
    // The server's key cache (5 s) may still hold the old limit: a fresh server reads the row.
    const fresh = await createApiServer({ chains: CHAINS, store, log: createSilentLogger() });
    const freshUrl = await fresh.listen(0, '127.0.0.1');
    try {
      const api = new TrailsApi(old, { hostname: freshUrl });
      const results = await Promise.allSettled(
        Array.from({ length: PARALLEL_REQUESTS }, () => api.getChains({})),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('makes a new key with the devnet limit when the stored one was revoked', async () => {
    const first = await ensureDevnetAccessKey(store);
    const row = await store.accessKeys.resolve(first);
    await store.accessKeys.revoke({ projectId: row!.projectId, idOrPrefix: String(row!.id) });
    const second = await ensureDevnetAccessKey(store, first);
    expect(second).not.toBe(first);
    expect((await store.accessKeys.resolve(second))?.rateLimitPerMinute).toBe(
      DEVNET_KEY_RATE_LIMIT_PER_MINUTE,
    );
  });
});
