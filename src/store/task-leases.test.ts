import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent } from './testing.ts';
import type { Store } from './types.ts';

describeEachDialect('task leases and handing steps back', ({ openStore, dialect }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore();
  });
  const t0 = new Date('2030-06-01T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);

  it('gives a task to one worker until its lease runs out, renews it for the holder, and frees it on release', async () => {
    const task = 'deposit-watch';
    expect(await store.taskLeases.acquire({ task, owner: 'w1', leaseMs: 10_000, now: at(0) })).toBe(true);
    // Held: another worker does not get it, however often it asks.
    expect(await store.taskLeases.acquire({ task, owner: 'w2', leaseMs: 10_000, now: at(5) })).toBe(false);
    // The holder renews it; the lease now runs until 18 s.
    expect(await store.taskLeases.acquire({ task, owner: 'w1', leaseMs: 10_000, now: at(8) })).toBe(true);
    expect(await store.taskLeases.acquire({ task, owner: 'w2', leaseMs: 10_000, now: at(15) })).toBe(false);
    expect(await store.taskLeases.get(task)).toEqual({ task, owner: 'w1', leaseUntil: at(18) });
    // w1 died (stopped renewing): once the lease ran out, w2 takes it, and w1 cannot take it back.
    expect(await store.taskLeases.acquire({ task, owner: 'w2', leaseMs: 10_000, now: at(19) })).toBe(true);
    expect(await store.taskLeases.acquire({ task, owner: 'w1', leaseMs: 10_000, now: at(20) })).toBe(false);
    // Only the holder releases; then anyone takes it at once.
    expect(await store.taskLeases.release({ task, owner: 'w1' })).toBe(false);
    expect(await store.taskLeases.release({ task, owner: 'w2' })).toBe(true);
    expect(await store.taskLeases.get(task)).toBeUndefined();
    expect(await store.taskLeases.acquire({ task, owner: 'w3', leaseMs: 10_000, now: at(21) })).toBe(true);
    // Tasks are independent.
    expect(
      await store.taskLeases.acquire({ task: 'restore:1', owner: 'w1', leaseMs: 10_000, now: at(21) }),
    ).toBe(true);
  });

  it('gives a free task to exactly one of many workers asking at once', async () => {
    // On Postgres each store is a process of its own (its own pool); SQLite serves one process.
    const stores =
      dialect === 'postgres' ? [store, await openStore(), await openStore(), await openStore()] : [store];
    for (let round = 0; round < 5; round++) {
      const task = `race-${round}`;
      const owners = Array.from({ length: 8 }, (_, i) => `w${i}`);
      const won = await Promise.all(
        owners.map((owner, i) =>
          stores[i % stores.length]!.taskLeases.acquire({ task, owner, leaseMs: 10_000, now: at(100) }),
        ),
      );
      const winners = owners.filter((_, i) => won[i]);
      expect(winners).toHaveLength(1);
      expect((await store.taskLeases.get(task))?.owner).toBe(winners[0]);
      // Once it ran out, again exactly one of them takes it over.
      const again = await Promise.all(
        owners.map((owner, i) =>
          stores[i % stores.length]!.taskLeases.acquire({ task, owner, leaseMs: 10_000, now: at(111) }),
        ),
      );
      expect(again.filter(Boolean)).toHaveLength(1);
    }
  });

  it('hands a running step back: due at once, unleased, for the next worker; only the holder can', async () => {
    const project = await store.projects.create('release');
    const { intentId } = await store.intents.insert(newIntent(project.id));
    await store.steps.enqueue({ intentId, step: 'fill', runAt: at(0) });
    await store.steps.enqueue({ intentId, step: 'settle', runAt: at(0) });
    const leased = await store.steps.leaseDue({ owner: 'w1', limit: 10, leaseMs: 10_000, now: at(1) });
    expect(leased).toHaveLength(2);
    const ids = leased.map((s) => s.id);
    // Another worker's hand-back changes nothing.
    expect(await store.steps.release({ ids, owner: 'w2', now: at(2) })).toEqual([]);
    expect(await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 10_000, now: at(2) })).toEqual([]);
    // w1 stops with both running: handed back, w2 leases them at once (not after the 10 s lease).
    expect(await store.steps.release({ ids, owner: 'w1', now: at(2) })).toEqual([intentId, intentId]);
    const journal = await store.steps.list(intentId);
    expect(journal.map((s) => [s.step, s.state, s.leaseOwner, s.nextAttemptAt])).toEqual([
      ['fill', 'pending', null, at(2)],
      ['settle', 'pending', null, at(2)],
    ]);
    const taken = await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 10_000, now: at(2) });
    expect(taken.map((s) => [s.step, s.leaseOwner])).toEqual([
      ['fill', 'w2'],
      ['settle', 'w2'],
    ]);
    // w1's late completion cannot undo w2's lease.
    expect(await store.steps.complete({ id: ids[0]!, owner: 'w1' })).toEqual({ done: false, leased: [] });
    // A step already done is not handed back.
    await store.steps.complete({ id: taken[1]!.id, owner: 'w2' });
    expect(await store.steps.release({ ids: [taken[1]!.id], owner: 'w2', now: at(3) })).toEqual([]);
  });
});
