/**
 * The step loop's wake-ups on PostgreSQL (src/engine/step-wakeups.ts): a worker whose idle poll is a minute
 * still takes, within a fraction of a second,
 * - a step another process journals beside an intent change (NOTIFY), also when the change is committed
 *   before the step (as ExecuteIntent does: the status, then the deposit step);
 * - a step it journaled itself to run later (enqueue, enqueueAll), at its time, also when it falls due
 *   while a look that began before its time is under way.
 * A step journaled by another process with no change to say so waits for the idle poll: the control that
 * shows the poll is not what took the others. Two stores on one database play the API process and the worker.
 *
 * The steps have no definition, so the worker's run fails each for good at its first attempt: what is
 * asserted is when the step was leased (attempts 1), not what it did.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EngineContext } from '../../src/engine/context.ts';
import { createStepRunner, type StepRunner } from '../../src/engine/step-runner.ts';
import { createDueTimes, noteDueTimes } from '../../src/engine/step-wakeups.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { newIntent } from '../../src/store/testing.ts';
import type { Store } from '../../src/store/types.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';

/** The worker's idle poll (ms): far longer than any wait below, so only a wake-up can take a step in time. */
const IDLE_POLL_MS = 60_000;
/** The worker's poll while woken (ms): the second look after an intent change comes this long after it. */
const POLL_MS = 100;
/** Longest a woken worker may take to lease the step (ms), on a loaded 2-core machine. */
const WOKEN_WITHIN_MS = 1_500;
/** How long the control step is watched not being taken (ms). */
const CONTROL_MS = 1_000;
/** A step the worker journals itself is due this far ahead (ms). */
const LATER_MS = 600;
/** A slowed look begins this long before its step is due (ms) and lasts SLOW_LOOK_MS more than its statement. */
const LOOK_BEFORE_DUE_MS = 200;
const SLOW_LOOK_MS = 500;

let database: TestDatabase;
let api: Store;
let worker: Store;
let workerSteps: Store['steps'];
let runner: StepRunner;
let projectId: number;
/** While set, the worker's looks (leaseDue) end SLOW_LOOK_MS after their statement, as on a loaded machine. */
let slowLooks = false;

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  api = await createStore({ ...database.options, log: createSilentLogger() });
  worker = await createStore({ ...database.options, log: createSilentLogger() });
  projectId = (await api.projects.ensure('wakeups')).id;
  const due = createDueTimes();
  workerSteps = noteDueTimes(worker.steps, due);
  const steps: Store['steps'] = {
    ...workerSteps,
    async leaseDue(input) {
      const leased = await workerSteps.leaseDue(input);
      if (slowLooks) await new Promise((resolve) => setTimeout(resolve, SLOW_LOOK_MS));
      return leased;
    },
  };
  const ctx = {
    store: { ...worker, steps },
    log: createSilentLogger(),
  } as unknown as EngineContext;
  runner = createStepRunner(ctx, {
    workerId: 'worker',
    due,
    pollIntervalMs: POLL_MS,
    idlePollIntervalMs: IDLE_POLL_MS,
  });
  runner.start();
  // The loop's first look (at start) is over before any step below is journaled.
  await new Promise((resolve) => setTimeout(resolve, 2 * POLL_MS));
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  await api?.close();
  await worker?.close();
  await database?.drop();
});

const newIntentId = async () => (await api.intents.insert(newIntent(projectId))).intentId;

/** Milliseconds from now until the intent's only step has been leased once, or undefined after `limitMs`. */
async function leasedWithin(intentId: string, limitMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const [step] = await api.steps.list(intentId);
    if (step && step.attempts > 0) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

it('takes a step another process journals with an intent change at once, though its idle poll is a minute', async () => {
  const intentId = await newIntentId();
  await api.steps.enqueue({ intentId, step: 'no-such-step' });
  await api.events.publish(intentId);
  expect(await leasedWithin(intentId, WOKEN_WITHIN_MS)).toBeDefined();
});

it('takes a step journaled just after its intent changed: it looks again a poll interval later', async () => {
  const intentId = await newIntentId();
  await api.events.publish(intentId);
  // The change is heard (and looked at) before the step exists.
  await new Promise((resolve) => setTimeout(resolve, POLL_MS / 4));
  await api.steps.enqueue({ intentId, step: 'no-such-step' });
  expect(await leasedWithin(intentId, WOKEN_WITHIN_MS)).toBeDefined();
});

it('takes a step it journaled to run later at its time, not before', async () => {
  const intentId = await newIntentId();
  const journaledAt = Date.now();
  await workerSteps.enqueue({ intentId, step: 'no-such-step', runAt: new Date(journaledAt + LATER_MS) });
  expect(await leasedWithin(intentId, LATER_MS + WOKEN_WITHIN_MS)).toBeDefined();
  const [step] = await api.steps.list(intentId);
  expect(step!.updatedAt.getTime()).toBeGreaterThanOrEqual(journaledAt + LATER_MS);
});

it('takes a step that fell due while a look that began before its time was under way', async () => {
  const intentId = await newIntentId();
  const dueAt = Date.now() + LATER_MS;
  await workerSteps.enqueue({ intentId, step: 'no-such-step', runAt: new Date(dueAt) });
  // A look kicked just before the due time stands for the loop's timer firing a little early; it ends after.
  slowLooks = true;
  try {
    await new Promise((resolve) => setTimeout(resolve, dueAt - LOOK_BEFORE_DUE_MS - Date.now()));
    runner.kick();
    expect(await leasedWithin(intentId, LOOK_BEFORE_DUE_MS + SLOW_LOOK_MS + WOKEN_WITHIN_MS)).toBeDefined();
  } finally {
    slowLooks = false;
  }
});

it('takes a step it journaled with others to run later at its time (enqueueAll notes it too)', async () => {
  const intentId = await newIntentId();
  const journaledAt = Date.now();
  await workerSteps.enqueueAll({
    intentId,
    steps: [{ step: 'no-such-step', runAt: new Date(journaledAt + LATER_MS) }],
  });
  expect(await leasedWithin(intentId, LATER_MS + WOKEN_WITHIN_MS)).toBeDefined();
});

it('leaves a step journaled elsewhere with nothing said to its idle poll (the control)', async () => {
  const intentId = await newIntentId();
  await api.steps.enqueue({ intentId, step: 'no-such-step' });
  expect(await leasedWithin(intentId, CONTROL_MS)).toBeUndefined();
  runner.kick();
  expect(await leasedWithin(intentId, WOKEN_WITHIN_MS)).toBeDefined();
});
