/**
 * RetryIntent's store moves on both databases: a FAILED intent back to EXECUTING (only from FAILED, once)
 * and a finished step journaled again.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomHash } from './testing.ts';
import type { Project, Store } from './types.ts';

describeEachDialect('retry moves', ({ openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('retry');
  });

  async function intentIn(status: 'FAILED' | 'SUCCEEDED' | 'EXECUTING'): Promise<string> {
    const { intentId } = await store.intents.insert(newIntent(project.id));
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    if (status !== 'EXECUTING') await store.intents.updateStatus({ intentId, to: status });
    return intentId;
  }

  it('moves a FAILED intent back to EXECUTING once, with the new deposit hash, and tells waiters', async () => {
    const intentId = await intentIn('FAILED');
    const failed = await store.intents.get({ projectId: project.id, intentId });
    expect(failed?.finishedAt).not.toBeNull();
    const hash = randomHash();
    const changed: string[] = [];
    const stop = store.events.subscribe(intentId, () => changed.push(intentId));
    try {
      const [first, second] = await Promise.all([
        store.intents.reopenFailed({
          intentId,
          depositTransactionHash: hash.toUpperCase().replace('0X', '0x'),
        }),
        store.intents.reopenFailed({ intentId, depositTransactionHash: hash }),
      ]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      const reopened = await store.intents.get({ projectId: project.id, intentId });
      expect(reopened?.status).toBe('EXECUTING');
      expect(reopened?.finishedAt).toBeNull();
      expect(reopened?.depositTransactionHash).toBe(hash.toLowerCase());
      await expect.poll(() => changed.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
    // Forward moves work again from there.
    expect((await store.intents.updateStatus({ intentId, to: 'SUCCEEDED' })).status).toBe('SUCCEEDED');
  });

  it('leaves every other status alone', async () => {
    for (const status of ['SUCCEEDED', 'EXECUTING'] as const) {
      const intentId = await intentIn(status);
      expect(await store.intents.reopenFailed({ intentId, depositTransactionHash: randomHash() })).toBe(
        false,
      );
      expect((await store.intents.get({ projectId: project.id, intentId }))?.status).toBe(status);
    }
    expect(
      await store.intents.reopenFailed({ intentId: randomHash(), depositTransactionHash: randomHash() }),
    ).toBe(false);
  });

  it('journals a done or failed step again, leaves a pending one alone, and adds an absent one', async () => {
    const { intentId } = await store.intents.insert(newIntent(project.id));
    const t0 = new Date('2032-01-01T00:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    await store.steps.enqueue({ intentId, step: 'deposit', runAt: t0 });
    await store.steps.enqueue({ intentId, step: 'origin', runAt: t0 });
    await store.steps.enqueue({ intentId, step: 'waiting', runAt: at(500) });
    const [deposit, origin] = await store.steps.leaseDue({
      owner: 'w',
      limit: 2,
      leaseMs: 1_000,
      now: at(1),
    });
    await store.steps.complete({ id: deposit!.id, owner: 'w' });
    await store.steps.fail({ id: origin!.id, owner: 'w', error: 'gave up' });

    for (const step of ['deposit', 'origin', 'waiting', 'fresh']) {
      await store.steps.requeue({ intentId, step, runAt: at(10) });
    }
    const journal = await store.steps.list(intentId);
    expect(
      journal.map((s) => [s.step, s.state, s.attempts, s.lastError, s.nextAttemptAt.toISOString()]),
    ).toEqual([
      ['deposit', 'pending', 0, null, at(10).toISOString()],
      ['origin', 'pending', 0, null, at(10).toISOString()],
      ['waiting', 'pending', 0, null, at(500).toISOString()],
      ['fresh', 'pending', 0, null, at(10).toISOString()],
    ]);
    const due = await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 1_000, now: at(11) });
    expect(due.map((s) => s.step).sort()).toEqual(['deposit', 'fresh', 'origin']);
  });
});
