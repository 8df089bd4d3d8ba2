import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { exitedPid, idOfProcess } from '../../test/harness/worker-ids.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { newWorkerId } from '../internal/worker-id.ts';
import { newIntent } from '../store/testing.ts';
import type { Store } from '../store/types.ts';
import { createDeadWorkerWatch } from './dead-worker-watch.ts';
import { endDeadWorkersLeases } from './end-dead-workers-leases.ts';

const LEASE_MS = 60_000;

describeEachDialect('ending dead workers’ leases', ({ openStore }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore();
  });

  it('ends the step, task and webhook leases of a worker whose process is gone, at once; a live worker keeps its own', async () => {
    const project = await store.projects.create('dead-leases');
    const [deadStep, liveStep] = await Promise.all(
      [0, 1].map(async () => {
        const { intentId } = await store.intents.insert(newIntent(project.id));
        await store.steps.enqueue({ intentId, step: 'origin' });
        return intentId;
      }),
    );
    const dead = idOfProcess(await exitedPid());
    const live = idOfProcess(process.pid);
    // An endpoint with an event to deliver, its lease held by the dead worker's dispatcher.
    const endpoint = await store.webhooks.create({
      projectId: project.id,
      url: 'https://hooks.example/dead',
      secret: 'whsec_test',
      eventTypes: ['intent.*'],
    });
    await store.intents.updateStatus({ intentId: deadStep, to: 'COMMITTED' });
    const leaseEndpoint = async (owner: string) =>
      (await store.webhooks.leaseDue({ owner, leaseMs: LEASE_MS, limit: 100 })).filter(
        (e) => e.id === endpoint.id,
      );
    expect(await leaseEndpoint(dead)).toHaveLength(1);
    // Each takes one step (the oldest due first) and one task, for a minute.
    expect(await store.steps.leaseDue({ owner: dead, limit: 1, leaseMs: LEASE_MS })).toHaveLength(1);
    expect(await store.steps.leaseDue({ owner: live, limit: 1, leaseMs: LEASE_MS })).toHaveLength(1);
    expect(await store.taskLeases.acquire({ task: 'deposit-watch', owner: dead, leaseMs: LEASE_MS })).toBe(
      true,
    );
    expect(await store.taskLeases.acquire({ task: 'restore:1', owner: live, leaseMs: LEASE_MS })).toBe(true);
    const restarted = newWorkerId();
    expect(await store.steps.leaseDue({ owner: restarted, limit: 10, leaseMs: LEASE_MS })).toEqual([]);

    const ended = await endDeadWorkersLeases({ store, log: createSilentLogger() });
    expect(ended).toEqual({ owners: [dead], intentIds: [deadStep], tasks: 1, webhookEndpoints: 1 });

    // Long before the minute is up, another worker takes over the dead worker's step, task and endpoint, as
    // after a lease that ran out (the step's takeover is recorded), and neither of the live worker's.
    const taken = await store.steps.leaseDue({ owner: restarted, limit: 10, leaseMs: LEASE_MS });
    expect(taken.map((s) => [s.intentId, s.attempts, s.leaseOwner])).toEqual([[deadStep, 2, restarted]]);
    const [row] = (await store.steps.list(deadStep)).filter((s) => s.step === 'origin');
    expect(row?.takenOverFrom).toBe(dead);
    expect(
      await store.taskLeases.acquire({ task: 'deposit-watch', owner: restarted, leaseMs: LEASE_MS }),
    ).toBe(true);
    expect(await store.taskLeases.acquire({ task: 'restore:1', owner: restarted, leaseMs: LEASE_MS })).toBe(
      false,
    );
    expect((await store.steps.list(liveStep))[0]?.leaseOwner).toBe(live);
    expect(await leaseEndpoint(restarted)).toHaveLength(1);
    // Nothing left to end: a second start finds no dead worker's lease.
    expect(await endDeadWorkersLeases({ store, log: createSilentLogger() })).toEqual({
      owners: [],
      intentIds: [],
      tasks: 0,
      webhookEndpoints: 0,
    });
  });

  it('a running worker ends the leases of a sibling on its machine soon after that sibling dies', async () => {
    const project = await store.projects.create('dead-sibling');
    const { intentId } = await store.intents.insert(newIntent(project.id));
    await store.steps.enqueue({ intentId, step: 'fill' });
    const sibling = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    const siblingId = idOfProcess(sibling.pid!);
    expect(await store.steps.leaseDue({ owner: siblingId, limit: 10, leaseMs: LEASE_MS })).toHaveLength(1);
    const published: string[] = [];
    const watch = createDeadWorkerWatch({
      store: { ...store, events: { ...store.events, publish: async (id) => void published.push(id) } },
      log: createSilentLogger(),
      intervalMs: 50,
    });
    const self = newWorkerId();
    try {
      await watch.start();
      // Alive: its lease holds through several looks.
      await sleep(300);
      expect(await store.steps.leaseDue({ owner: self, limit: 10, leaseMs: LEASE_MS })).toEqual([]);
      sibling.kill('SIGKILL');
      await once(sibling, 'exit');
      const deadline = Date.now() + 5_000;
      while (!published.includes(intentId) && Date.now() < deadline) await sleep(20);
      expect(published).toEqual([intentId]);
      const taken = await store.steps.leaseDue({ owner: self, limit: 10, leaseMs: LEASE_MS });
      expect(taken.map((s) => [s.intentId, s.takenOverFrom])).toEqual([[intentId, siblingId]]);
    } finally {
      sibling.kill('SIGKILL');
      await watch.stop();
    }
  });
});
