/**
 * The deletion of expired quotes runs in the process `switchyard serve`/`start` assemble (worker roles only):
 * a quote nobody committed answers NotFound once its retention has passed, while a committed intent is still
 * there. The service is production's assembly (startSwitchyard) on a store the test fills.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NotFoundError, TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_RETENTION_MS } from '../../src/app/quote-retention.ts';
import { startSwitchyard } from '../../src/app/start-switchyard.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { newIntent } from '../../src/store/testing.ts';
import { CHAINS } from './fixtures.ts';

const EXPIRY = new Date('2026-01-01T00:00:00Z');
/** The process's clock: past every test quote's retention. */
const LATER = new Date(EXPIRY.getTime() + QUOTE_RETENTION_MS + 1);
/** A fast interval, so the test sees several runs in well under a second. */
const TEST_INTERVAL_MS = 50;
/** Long enough for several runs at TEST_INTERVAL_MS. */
const SEVERAL_RUNS_MS = 10 * TEST_INTERVAL_MS;

describe('quote retention in the assembled process', () => {
  let dataDir: string;
  let store: Store;
  let projectId: number;
  let key: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-retention-'));
    store = await createStore({ sqlitePath: path.join(dataDir, 'test.sqlite'), log: createSilentLogger() });
    projectId = (await store.projects.create('retention')).id;
    key = (await store.accessKeys.create({ projectId })).key;
  });
  afterAll(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (role: 'api' | 'all') => {
    const shutdown = createShutdown();
    const app = await startSwitchyard({
      config: { host: '127.0.0.1', port: 0, dataDir, role, chains: CHAINS },
      operator: undefined,
      log: createSilentLogger(),
      shutdown,
      store,
      quoteRetention: { intervalMs: TEST_INTERVAL_MS, now: () => LATER },
    });
    return { api: new TrailsApi(key, { hostname: app.url }), stop: () => shutdown.shutdown() };
  };

  it('leaves quotes alone in an api-only process', async () => {
    const quoted = await store.intents.insert(newIntent(projectId, { quoteExpiresAt: EXPIRY }));
    const { api, stop } = await start('api');
    try {
      await new Promise((resolve) => setTimeout(resolve, SEVERAL_RUNS_MS));
      expect((await api.getIntentReceipt({ intentId: quoted.intentId })).intentReceipt.status).toBe('QUOTED');
    } finally {
      await stop();
    }
  });

  it('deletes a lapsed quote in a worker process and keeps a committed intent', async () => {
    const quoted = await store.intents.insert(newIntent(projectId, { quoteExpiresAt: EXPIRY }));
    const committed = await store.intents.insert(newIntent(projectId, { quoteExpiresAt: EXPIRY }));
    await store.intents.updateStatus({ intentId: committed.intentId, to: 'COMMITTED', committedAt: EXPIRY });
    const { api, stop } = await start('all');
    try {
      await expect
        .poll(() => store.intents.getForEngine(quoted.intentId), { timeout: 10_000 })
        .toBeUndefined();
      await expect(api.getIntentReceipt({ intentId: quoted.intentId })).rejects.toBeInstanceOf(NotFoundError);
      expect((await api.getIntentReceipt({ intentId: committed.intentId })).intentReceipt.status).toBe(
        'COMMITTED',
      );
    } finally {
      await stop();
    }
  });
});
