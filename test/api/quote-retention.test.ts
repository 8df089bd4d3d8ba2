/**
 * The deletion of expired quotes runs in the process `switchyard serve`/`start` assemble (worker roles only):
 * a quote nobody committed answers NotFound once its retention has passed, while a committed intent is still
 * there. The service is production's assembly (startSwitchyard, through test/harness/app.ts) on a store the
 * test fills.
 */
import { NotFoundError, TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_RETENTION_MS } from '../../src/app/quote-retention.ts';
import { newIntent } from '../../src/store/testing.ts';
import { startTestService } from '../harness/app.ts';
import { openTestStore, type TestStore } from '../harness/test-store.ts';
import { CHAINS } from './fixtures.ts';

const EXPIRY = new Date('2026-01-01T00:00:00Z');
/** The process's clock: past every test quote's retention. */
const LATER = new Date(EXPIRY.getTime() + QUOTE_RETENTION_MS + 1);
/** A fast interval, so the test sees several runs in well under a second. */
const TEST_INTERVAL_MS = 50;
/** Long enough for several runs at TEST_INTERVAL_MS. */
const SEVERAL_RUNS_MS = 10 * TEST_INTERVAL_MS;

/** The project of the test's intents; the processes' access keys are its. */
const PROJECT = 'retention';

describe('quote retention in the assembled process', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(PROJECT);
  });
  afterAll(async () => {
    await t.close();
  });

  const start = async (role: 'api' | 'all') => {
    const app = await startTestService({
      chains: CHAINS,
      operator: undefined,
      role,
      store: t.store,
      projectName: PROJECT,
      quoteRetention: { intervalMs: TEST_INTERVAL_MS, now: () => LATER },
    });
    return { api: new TrailsApi(app.key, { hostname: app.url }), stop: app.stop };
  };

  it('leaves quotes alone in an api-only process', async () => {
    const quoted = await t.store.intents.insert(newIntent(t.projectId, { quoteExpiresAt: EXPIRY }));
    const { api, stop } = await start('api');
    try {
      await new Promise((resolve) => setTimeout(resolve, SEVERAL_RUNS_MS));
      expect((await api.getIntentReceipt({ intentId: quoted.intentId })).intentReceipt.status).toBe('QUOTED');
    } finally {
      await stop();
    }
  });

  it('deletes a lapsed quote in a worker process and keeps a committed intent', async () => {
    const quoted = await t.store.intents.insert(newIntent(t.projectId, { quoteExpiresAt: EXPIRY }));
    const committed = await t.store.intents.insert(newIntent(t.projectId, { quoteExpiresAt: EXPIRY }));
    await t.store.intents.updateStatus({
      intentId: committed.intentId,
      to: 'COMMITTED',
      committedAt: EXPIRY,
    });
    const { api, stop } = await start('all');
    try {
      await expect
        .poll(() => t.store.intents.getForEngine(quoted.intentId), { timeout: 10_000 })
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
