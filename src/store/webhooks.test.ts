import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent } from './testing.ts';
import type { Project, Store, WebhookDeliveryInput } from './types.ts';

const LEASE_MS = 10_000;
const ok = (eventSeq: number, attempt = 1): WebhookDeliveryInput => ({
  eventSeq,
  eventType: 'intent.committed',
  attempt,
  statusCode: 200,
  error: null,
  latencyMs: 12.4,
});
const refused = (eventSeq: number, attempt: number): WebhookDeliveryInput => ({
  eventSeq,
  eventType: 'intent.committed',
  attempt,
  statusCode: null,
  error: 'connect ECONNREFUSED',
  latencyMs: 1,
});

describeEachDialect('webhooks', ({ dialect, openStore }) => {
  let clock = Date.UTC(2026, 0, 1);
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore({ now: () => new Date(clock) });
    project = await store.projects.create('hooks');
  });

  const commitOne = async (projectId = project.id) => {
    const { intentId } = await store.intents.insert(newIntent(projectId));
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    return store.eventLog.latest(projectId);
  };
  const add = (url = 'https://hooks.example/a', projectId = project.id) =>
    store.webhooks.create({ projectId, url, secret: 'whsec_test', eventTypes: ['intent.*', 'ping'] });
  /** Leases due endpoints of this test only (other tests' endpoints may be due too). */
  const lease = async (owner: string, ids: number[], at = clock) =>
    (await store.webhooks.leaseDue({ owner, leaseMs: LEASE_MS, limit: 100, now: new Date(at) })).filter((e) =>
      ids.includes(e.id),
    );

  it('an endpoint starts after the project latest event; list, get and remove are scoped to the project', async () => {
    const latest = await commitOne();
    const endpoint = await add();
    expect(endpoint).toMatchObject({
      projectId: project.id,
      url: 'https://hooks.example/a',
      eventTypes: ['intent.*', 'ping'],
      state: 'active',
      handledSeq: latest,
      attempts: 0,
      failingSince: null,
    });
    expect(endpoint.readSecret()).toBe('whsec_test');
    const other = await store.projects.create('hooks-other');
    expect(await store.webhooks.get({ projectId: other.id, id: endpoint.id })).toBeUndefined();
    expect(await store.webhooks.remove({ projectId: other.id, id: endpoint.id })).toBe(false);
    await store.webhooks.recordDelivery({ endpointId: endpoint.id, delivery: ok(0) });
    const [listed] = (await store.webhooks.list(project.id)).filter((e) => e.id === endpoint.id);
    expect(listed?.lastDelivery).toMatchObject({ eventSeq: 0, statusCode: 200, ok: true, latencyMs: 12 });
    expect(await store.webhooks.remove({ projectId: project.id, id: endpoint.id })).toBe(true);
    expect(await store.webhooks.get({ projectId: project.id, id: endpoint.id })).toBeUndefined();
  });

  it('an endpoint is leased only with events after its cursor, to one holder, until the lease expires', async () => {
    const endpoint = await add();
    expect(await lease('a', [endpoint.id])).toEqual([]);
    const seq = await commitOne();
    expect((await lease('a', [endpoint.id])).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await lease('b', [endpoint.id])).toEqual([]);
    // The holder moves the cursor; another cannot.
    expect(
      await store.webhooks.advance({ id: endpoint.id, owner: 'b', handledSeq: seq, leaseMs: LEASE_MS }),
    ).toBe(false);
    // A dead holder's lease runs out and another process takes the endpoint over.
    const later = clock + LEASE_MS + 1;
    expect((await lease('b', [endpoint.id], later)).map((e) => e.id)).toEqual([endpoint.id]);
    expect(
      await store.webhooks.advance({
        id: endpoint.id,
        owner: 'a',
        handledSeq: seq,
        leaseMs: LEASE_MS,
        delivery: ok(seq),
      }),
    ).toBe(false);
    expect(await store.webhooks.deliveries({ endpointId: endpoint.id, limit: 10 })).toEqual([]);
    expect(
      await store.webhooks.advance({
        id: endpoint.id,
        owner: 'b',
        handledSeq: seq,
        leaseMs: LEASE_MS,
        delivery: ok(seq),
      }),
    ).toBe(true);
    await store.webhooks.release({ id: endpoint.id, owner: 'b' });
    expect((await store.webhooks.get({ projectId: project.id, id: endpoint.id }))?.handledSeq).toBe(seq);
    // Nothing after the cursor any more.
    expect(await lease('a', [endpoint.id], later)).toEqual([]);
    await store.webhooks.remove({ projectId: project.id, id: endpoint.id });
  });

  it('a failure is retried at its time; with no time left the endpoint is failing until reactivated', async () => {
    const endpoint = await add();
    const seq = await commitOne();
    const since = new Date(clock);
    await lease('a', [endpoint.id]);
    expect(
      await store.webhooks.recordFailure({
        id: endpoint.id,
        owner: 'a',
        delivery: refused(seq, 1),
        failingSince: since,
        retryAt: new Date(clock + 5_000),
      }),
    ).toBe(true);
    expect(await lease('a', [endpoint.id], clock + 4_999)).toEqual([]);
    const [again] = await lease('a', [endpoint.id], clock + 5_000);
    expect(again).toMatchObject({ attempts: 1, failingSince: since, handledSeq: seq - 1 });
    await store.webhooks.recordFailure({
      id: endpoint.id,
      owner: 'a',
      delivery: refused(seq, 2),
      failingSince: since,
      retryAt: null,
    });
    expect(await store.webhooks.get({ projectId: project.id, id: endpoint.id })).toMatchObject({
      state: 'failing',
      attempts: 2,
    });
    expect(await lease('a', [endpoint.id], clock + 3_600_000)).toEqual([]);
    expect(
      (await store.webhooks.deliveries({ endpointId: endpoint.id, limit: 10 })).map((d) => [
        d.attempt,
        d.ok,
        d.error,
      ]),
    ).toEqual([
      [2, false, 'connect ECONNREFUSED'],
      [1, false, 'connect ECONNREFUSED'],
    ]);
    // Resumed where it stopped, or replayed from an earlier number.
    expect(await store.webhooks.reactivate({ projectId: project.id, id: endpoint.id })).toBe(true);
    expect(await store.webhooks.get({ projectId: project.id, id: endpoint.id })).toMatchObject({
      state: 'active',
      attempts: 0,
      failingSince: null,
      handledSeq: seq - 1,
    });
    await store.webhooks.reactivate({ projectId: project.id, id: endpoint.id, handledSeq: 0 });
    expect((await lease('a', [endpoint.id]))[0]?.handledSeq).toBe(0);
    await store.webhooks.remove({ projectId: project.id, id: endpoint.id });
  });

  it('dispatchers leasing at once get disjoint endpoints', async () => {
    // Separate stores stand for separate processes on Postgres.
    const others =
      dialect === 'postgres'
        ? [await openStore({ now: () => new Date(clock) }), await openStore({ now: () => new Date(clock) })]
        : [store, store];
    const endpoints = await Promise.all(
      Array.from({ length: 30 }, (_, i) => add(`https://hooks.example/${i}`)),
    );
    await commitOne();
    const ids = endpoints.map((e) => e.id);
    const [a, b, c] = await Promise.all(
      [store, ...others].map((s, i) =>
        s.webhooks.leaseDue({ owner: `worker-${i}`, leaseMs: LEASE_MS, limit: 12, now: new Date(clock) }),
      ),
    );
    const leased = [a!, b!, c!].flatMap((batch) => batch.map((e) => e.id)).filter((id) => ids.includes(id));
    expect(new Set(leased).size).toBe(leased.length);
    expect(leased.length).toBe(30);
    for (const id of ids) await store.webhooks.remove({ projectId: project.id, id });
  });

  it('deletes delivery records older than the cutoff, oldest first', async () => {
    const endpoint = await add();
    for (let i = 1; i <= 3; i++)
      await store.webhooks.recordDelivery({ endpointId: endpoint.id, delivery: ok(i) });
    clock += 60_000;
    const cutoff = new Date(clock);
    await store.webhooks.recordDelivery({ endpointId: endpoint.id, delivery: ok(4) });
    let deleted = 0;
    for (;;) {
      const n = await store.webhooks.deleteDeliveriesOlderThan({ before: cutoff, limit: 2 });
      if (n === 0) break;
      deleted += n;
    }
    expect(deleted).toBeGreaterThanOrEqual(3);
    expect(
      (await store.webhooks.deliveries({ endpointId: endpoint.id, limit: 10 })).map((d) => d.eventSeq),
    ).toEqual([4]);
  });
});
