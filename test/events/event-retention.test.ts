/**
 * The event log's retention runs in the process `switchyard serve`/`start` assemble (worker roles only): an
 * event older than EVENT_RETENTION_MS is gone, and a stream resuming from before it is told so with a gap
 * message; webhook delivery records go with the events; a newer event stays. The service is production's
 * assembly (startSwitchyard, through test/harness/app.ts) on a store the test fills, its clock moved past the retention.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EVENT_RETENTION_MS } from '../../src/events/event-retention.ts';
import type { Store } from '../../src/store/index.ts';
import { newIntent } from '../../src/store/testing.ts';
import { CHAINS } from '../api/fixtures.ts';
import { startTestService } from '../harness/app.ts';
import { openTestStore, type TestStore } from '../harness/test-store.ts';
import { openSse } from './support/sse-client.ts';

const OLD = new Date('2026-01-01T00:00:00Z');
/** The process's clock: past the old events' retention, not the new one's. */
const LATER = new Date(OLD.getTime() + EVENT_RETENTION_MS + 60_000);
/** A fast interval, so the test sees several runs in well under a second. */
const TEST_INTERVAL_MS = 50;
const SEVERAL_RUNS_MS = 10 * TEST_INTERVAL_MS;

/** The project of the test's intents; the processes' access keys are its. */
const PROJECT = 'retention';

let clock = OLD;
let t: TestStore;
let store: Store;
let projectId: number;
beforeAll(async () => {
  t = await openTestStore(PROJECT, { now: () => clock });
  ({ store, projectId } = t);
});
afterAll(async () => {
  await t.close();
});

const start = (role: 'api' | 'all') =>
  startTestService({
    chains: CHAINS,
    operator: undefined,
    role,
    store,
    projectName: PROJECT,
    events: { retention: { intervalMs: TEST_INTERVAL_MS, now: () => LATER } },
  });

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
    const resumed = await openSse(`${worker.url}/events`, {
      'x-access-key': worker.key,
      'last-event-id': '0',
    });
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
