/**
 * The event log's retention runs in the process `switchyard serve`/`start` assemble (worker roles only): an
 * event older than EVENT_RETENTION_MS is gone, and a stream resuming from before it is told so with a gap
 * message; webhook delivery records go with the events; a newer event stays. The service is production's
 * assembly (startSwitchyard) on a store the test fills, its clock moved past the retention.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSwitchyard } from '../../src/app/start-switchyard.ts';
import { EVENT_RETENTION_MS } from '../../src/events/event-retention.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { newIntent } from '../../src/store/testing.ts';
import { CHAINS } from '../api/fixtures.ts';
import { openSse } from './support/sse-client.ts';

const OLD = new Date('2026-01-01T00:00:00Z');
/** The process's clock: past the old events' retention, not the new one's. */
const LATER = new Date(OLD.getTime() + EVENT_RETENTION_MS + 60_000);
/** A fast interval, so the test sees several runs in well under a second. */
const TEST_INTERVAL_MS = 50;
const SEVERAL_RUNS_MS = 10 * TEST_INTERVAL_MS;

let dataDir: string;
let clock = OLD;
let store: Store;
let projectId: number;
let key: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-event-retention-'));
  store = await createStore({
    sqlitePath: path.join(dataDir, 'test.sqlite'),
    log: createSilentLogger(),
    now: () => clock,
  });
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
    events: { retention: { intervalMs: TEST_INTERVAL_MS, now: () => LATER } },
  });
  return { url: app.url, stop: () => shutdown.shutdown() };
};

it('an api process keeps old events; a worker deletes them and their delivery records, and keeps newer ones', async () => {
  const old = await store.intents.insert(newIntent(projectId));
  await store.intents.updateStatus({ intentId: old.intentId, to: 'COMMITTED' });
  await store.intents.updateStatus({ intentId: old.intentId, to: 'EXECUTING' });
  const hook = await store.webhooks.create({
    projectId,
    url: 'https://hooks.example/',
    secret: 'whsec_x',
    eventTypes: ['*'],
  });
  const delivery = {
    eventSeq: 1,
    eventType: 'intent.committed',
    attempt: 1,
    statusCode: 200,
    error: null,
    latencyMs: 3,
  };
  await store.webhooks.recordDelivery({ endpointId: hook.id, delivery });
  clock = new Date(LATER.getTime() - 1_000);
  await store.intents.updateStatus({ intentId: old.intentId, to: 'SUCCEEDED' });

  const api = await start('api');
  try {
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_RUNS_MS));
    expect((await store.eventLog.listAfter({ projectId, after: 0, limit: 10 })).map((e) => e.seq)).toEqual([
      1, 2, 3,
    ]);
  } finally {
    await api.stop();
  }

  const worker = await start('all');
  try {
    await expect
      .poll(
        async () => (await store.eventLog.listAfter({ projectId, after: 0, limit: 10 })).map((e) => e.seq),
        {
          timeout: 10_000,
        },
      )
      .toEqual([3]);
    // The old record goes (the worker's dispatcher may add new attempts at event 3 meanwhile: they stay).
    await expect
      .poll(
        async () =>
          (await store.webhooks.deliveries({ endpointId: hook.id, limit: 100 })).filter(
            (d) => d.eventSeq === 1,
          ),
        {
          timeout: 10_000,
        },
      )
      .toEqual([]);
    // A client resuming from before the retention learns what it cannot have, then gets what is kept.
    const resumed = await openSse(`${worker.url}/events`, { 'x-access-key': key, 'last-event-id': '0' });
    await resumed.until((m) => m.length === 2);
    expect(resumed.messages[0]).toMatchObject({
      event: 'gap',
      data: JSON.stringify({ reason: 'deleted', from: 1, to: 2 }),
    });
    expect(resumed.messages[1]).toMatchObject({ event: 'message', id: '3' });
    resumed.close();
  } finally {
    await worker.stop();
  }
});
