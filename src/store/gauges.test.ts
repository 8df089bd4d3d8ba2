import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent } from './testing.ts';
import type { Store } from './types.ts';

describeEachDialect('gauges', ({ openStore }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore();
  });

  it('counts intents by status across projects, and an empty store as nothing', async () => {
    expect(await store.gauges.intentsByStatus()).toEqual({});
    const a = await store.projects.create('gauges-a');
    const b = await store.projects.create('gauges-b');
    const ids: string[] = [];
    for (const projectId of [a.id, a.id, b.id, b.id, b.id])
      ids.push((await store.intents.insert(newIntent(projectId))).intentId);
    await store.intents.updateStatus({ intentId: ids[0]!, to: 'COMMITTED' });
    await store.intents.updateStatus({ intentId: ids[2]!, to: 'COMMITTED' });
    await store.intents.updateStatus({ intentId: ids[2]!, to: 'EXECUTING' });
    await store.intents.updateStatus({ intentId: ids[2]!, to: 'SUCCEEDED' });
    expect(await store.gauges.intentsByStatus()).toEqual({ QUOTED: 3, COMMITTED: 1, SUCCEEDED: 1 });
  });

  it('counts steps due and leased as a worker’s lease would see them', async () => {
    const project = await store.projects.create('gauges-steps');
    const { intentId } = await store.intents.insert(newIntent(project.id));
    const t0 = new Date('2030-01-01T00:00:00Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    expect(await store.gauges.steps(t0)).toEqual({ due: 0, leased: 0 });

    await store.steps.enqueue({ intentId, step: 'deposit', runAt: t0 });
    await store.steps.enqueue({ intentId, step: 'origin', runAt: at(60) });
    await store.steps.enqueue({ intentId, step: 'fill', runAt: at(0) });
    // Two due now; the origin step only at 60 s.
    expect(await store.gauges.steps(at(1))).toEqual({ due: 2, leased: 0 });

    const [deposit] = await store.steps.leaseDue({ owner: 'w1', limit: 1, leaseMs: 30_000, now: at(1) });
    expect(await store.gauges.steps(at(2))).toEqual({ due: 1, leased: 1 });
    // w1's lease ran out: the step is due again (the next lease takes it over), no longer leased.
    expect(await store.gauges.steps(at(40))).toEqual({ due: 2, leased: 0 });
    // Done steps count as neither.
    await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 30_000, now: at(41) });
    expect(await store.gauges.steps(at(42))).toEqual({ due: 0, leased: 2 });
    await store.steps.complete({ id: deposit!.id, owner: 'w2' });
    expect(await store.gauges.steps(at(61))).toEqual({ due: 1, leased: 1 });
  });

  it('says which worker a lease took a step over from, and nothing for a step leased from pending', async () => {
    const project = await store.projects.create('gauges-takeover');
    const { intentId } = await store.intents.insert(newIntent(project.id));
    // Before the other tests' steps are due, so the leases below see only this step.
    const t0 = new Date('2029-01-01T00:00:00Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    await store.steps.enqueue({ intentId, step: 'fill', runAt: t0 });
    const [first] = await store.steps.leaseDue({ owner: 'w1', limit: 1, leaseMs: 30_000, now: at(1) });
    expect(first?.takenOverFrom).toBeNull();
    // w1 stops renewing: w2 takes the step over once the lease has run out.
    const [taken] = await store.steps.leaseDue({ owner: 'w2', limit: 1, leaseMs: 30_000, now: at(40) });
    expect([taken?.leaseOwner, taken?.takenOverFrom]).toEqual(['w2', 'w1']);
    // w2 asks for a retry; the next lease comes from pending: no takeover.
    await store.steps.fail({ id: taken!.id, owner: 'w2', error: 'waiting: fill not mined', retryAt: at(41) });
    const [retried] = await store.steps.leaseDue({ owner: 'w3', limit: 1, leaseMs: 30_000, now: at(42) });
    expect([retried?.leaseOwner, retried?.takenOverFrom]).toEqual(['w3', null]);
  });
});
