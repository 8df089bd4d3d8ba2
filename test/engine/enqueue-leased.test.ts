/**
 * A step the engine enqueues due now (src/engine/enqueue-steps.ts) is leased to this process's step loop by
 * its insert and runs at once: the loop issues no lease statement for it. With no free slot it is journaled
 * pending and the loop takes it once a slot frees; a process whose loop never runs (an API process) journals
 * it pending as well.
 *
 * The loop polls once a minute and is never woken here except by the code under test, so a step taken by its
 * lease statement shows as one more `leaseDue` call. The steps have no definition: the worker's run fails
 * each for good at its first attempt, which is what is asserted (it ran, once, here).
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { EngineContext } from '../../src/engine/context.ts';
import { enqueueSteps, moveWithSteps } from '../../src/engine/enqueue-steps.ts';
import { createStepRunner, type StepRunner } from '../../src/engine/step-runner.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { newIntent } from '../../src/store/testing.ts';
import type { IntentStep, Store } from '../../src/store/types.ts';
import { describeEachDialect } from '../harness/database.ts';

/** The loop's poll (ms): far longer than any wait below, so only a kick or an adopted lease runs a step. */
const POLL_MS = 60_000;
/** Longest a step may take to run once it can (ms), on a loaded 2-core machine. */
const RAN_WITHIN_MS = 5_000;
/** How far ahead a later step is due (ms): well after the test ends. */
const LATER_MS = 3_600_000;

describeEachDialect('enqueue leased to the step loop', ({ openStore }) => {
  let store: Store;
  let projectId: number;
  let leaseDueCalls = 0;
  let runner: StepRunner | undefined;
  beforeAll(async () => {
    store = await openStore();
    projectId = (await store.projects.create('enqueue-leased')).id;
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  /** A worker's loop over a store whose lease statements are counted; started unless `started` is false. */
  async function startRunner({ batchSize = 4, started = true } = {}): Promise<StepRunner> {
    const steps: Store['steps'] = {
      ...store.steps,
      leaseDue(input) {
        leaseDueCalls++;
        return store.steps.leaseDue(input);
      },
    };
    const ctx = { store: { ...store, steps }, log: createSilentLogger() } as unknown as EngineContext;
    runner = createStepRunner(ctx, { workerId: 'worker', pollIntervalMs: POLL_MS, batchSize });
    if (!started) return runner;
    const before = leaseDueCalls;
    runner.start();
    // The loop's first look is over before anything is enqueued.
    await until(async () => leaseDueCalls > before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return runner;
  }

  const newIntentId = async () => (await store.intents.insert(newIntent(projectId))).intentId;
  const journal = async (intentId: string) => {
    const rows = await store.steps.list(intentId);
    return Object.fromEntries(rows.map((row) => [row.step, row])) as Record<string, IntentStep>;
  };
  const ranOnce = (step: IntentStep | undefined) =>
    step?.state === 'failed' && step.attempts === 1 && step.leaseOwner === null;

  it('runs a step it enqueues due now without a lease statement, and leaves a later one pending', async () => {
    const loop = await startRunner();
    const intentId = await newIntentId();
    const calls = leaseDueCalls;
    await enqueueSteps(store.steps, loop, intentId, [
      { step: 'no-such-step' },
      { step: 'no-such-later-step', runAt: new Date(Date.now() + LATER_MS) },
    ]);
    await until(async () => ranOnce((await journal(intentId))['no-such-step']));
    const steps = await journal(intentId);
    expect(steps['no-such-step']!.lastError).toContain('unknown step');
    expect(steps['no-such-later-step']).toMatchObject({ state: 'pending', attempts: 0, leaseOwner: null });
    expect(leaseDueCalls).toBe(calls);
  });

  it("runs a step journaled with a status move (ExecuteIntent's start) without a lease statement", async () => {
    const loop = await startRunner();
    const intentId = await newIntentId();
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const calls = leaseDueCalls;
    const moved = await moveWithSteps(store.intents, loop, { intentId, to: 'EXECUTING' }, [
      { step: 'no-such-step' },
      { step: 'no-such-later-step', runAt: new Date(Date.now() + LATER_MS) },
    ]);
    expect(moved).toMatchObject({ updated: true, status: 'EXECUTING' });
    await until(async () => ranOnce((await journal(intentId))['no-such-step']));
    expect((await journal(intentId))['no-such-later-step']).toMatchObject({ state: 'pending', attempts: 0 });
    expect(leaseDueCalls).toBe(calls);
  });

  it('journals it pending when the loop has no free slot, and the loop takes it when one frees', async () => {
    const loop = await startRunner({ batchSize: 1 });
    const intentId = await newIntentId();
    const calls = leaseDueCalls;
    // The only slot is held (as by another enqueue whose insert is in flight).
    const held = loop.offer(1);
    expect(held).toBeDefined();
    await enqueueSteps(store.steps, loop, intentId, [{ step: 'no-such-step' }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await journal(intentId))['no-such-step']).toMatchObject({ state: 'pending', attempts: 0 });
    held!.adopt([]);
    await until(async () => ranOnce((await journal(intentId))['no-such-step']));
    expect(leaseDueCalls).toBeGreaterThan(calls);
  });

  it('journals it pending in a process whose loop does not run', async () => {
    const idle = await startRunner({ started: false });
    expect(idle.offer(1)).toBeUndefined();
    const intentId = await newIntentId();
    await enqueueSteps(store.steps, idle, intentId, [{ step: 'no-such-step' }]);
    expect((await journal(intentId))['no-such-step']).toMatchObject({
      state: 'pending',
      attempts: 0,
      leaseOwner: null,
    });
  });
});

/** Resolves once `check` holds; fails the test after RAN_WITHIN_MS. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > RAN_WITHIN_MS) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
