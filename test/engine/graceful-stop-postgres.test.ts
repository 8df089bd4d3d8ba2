/**
 * A worker's graceful stop (engine.stop(), what SIGTERM runs), with two workers on one PostgreSQL database:
 * it stops leasing, waits for its running steps up to its bound, and hands the rest back. Beta's automine is
 * off, so an intent's fill (and the destination execution sent behind it) waits in beta's pool:
 *
 * - a fill mined within the bound: stop() waits for it, the step ends done, nothing is handed back;
 * - a fill still in the pool at the bound: stop() returns just after it, the steps are pending with no
 *   lease (not running for another 10 s lease), the other worker takes them at once and resumes the fill
 *   it finds journaled: the intent succeeds with one transaction per purpose, nothing signed twice.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STEP_LEASE_MS } from '../../src/engine/constants.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/types.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import {
  approveSettlerForSolver,
  type EngineFixture,
  startEngineFixture,
  usdcRequest,
} from './support/engine-fixture.ts';

/** The stopping worker's bound when it hands steps back (ms): production's is ENGINE_STOP_WAIT_MS (10 s). */
const STOP_WAIT_MS = 2_000;
/** The bound when the step ends within it (ms): far beyond the block mined 0.3 s in, on a loaded machine. */
const LONG_STOP_WAIT_MS = 8_000;
/** What stop() may take beyond its bound (ms): the hand-back's statements on a loaded 2-core machine. */
const STOP_SLACK_MS = 1_500;

/** The idle poll of the worker that takes over (ms): far beyond the wait below, so only a wake-up explains it. */
const IDLE_POLL_MS = 60_000;
/** How soon a worker already running takes over steps handed back (ms): a NOTIFY and a lease, loaded machine. */
const TAKEOVER_MS = 1_500;
/** Long enough for a worker just started to finish its first look at the journal (ms). */
const FIRST_LOOK_MS = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let f: EngineFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
const stores: Store[] = [];
const engines: IntentEngine[] = [];

beforeAll(async () => {
  f = await startEngineFixture('postgres');
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  await approveSettlerForSolver(beta);
}, 180_000);
afterAll(async () => {
  await beta?.testClient.setAutomine(true);
  for (const e of engines) await e.stop();
  for (const s of stores) await s.close();
  await f?.stop();
});

/**
 * A worker: an engine on its own pool, waiting `stopWaitMs` for its steps when it stops; `idlePollMs`
 * replaces production's 2 s idle poll.
 */
async function worker(
  workerId: string,
  stopWaitMs = STOP_WAIT_MS,
  idlePollMs?: number,
): Promise<IntentEngine> {
  const store = await createStore({ ...f.database.options, log: createSilentLogger() });
  stores.push(store);
  const engine = await f.startEngine({
    store,
    engine: {
      workerId,
      stopWaitMs,
      ...(idlePollMs !== undefined && { stepIdlePollIntervalMs: idlePollMs }),
    },
  });
  engines.push(engine);
  return engine;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, limitMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * A USDC alpha→beta intent executed on `engine`, once its fill and the destination execution behind it wait
 * in beta's pool (automine off).
 */
async function fillInThePool(engine: IntentEngine): Promise<string> {
  const { intentId, plan } = await f.commit(usdcRequest(f.net, alpha, beta, '15'));
  await beta.testClient.setAutomine(false);
  await engine.requestExecution({ intentId, depositTransactionHash: (await f.deposit(plan)) as Hex });
  // The fill, and the destination execution sent right behind it: both wait in the pool for one block.
  await until('the fill and the execution behind it in beta’s pool', async () => {
    const rows = await f.store.signedTransactions.listForIntent(intentId);
    const pooled = (purpose: string) => rows.some((r) => r.purpose === purpose && r.status === 'broadcast');
    return pooled('solver-fill') && pooled('destination-execute-early') ? true : undefined;
  });
  return intentId;
}

const stepsOf = async (intentId: string) =>
  Object.fromEntries((await f.store.steps.list(intentId)).map((s) => [s.step, s]));

it('waits for a step that ends within its bound', async () => {
  const a = await worker('worker-a', LONG_STOP_WAIT_MS);
  const intentId = await fillInThePool(a);
  const stopping = a.stop();
  const stoppedAt = Date.now();
  await sleep(300);
  await beta.testClient.mine({ blocks: 1 });
  await stopping;
  expect(Date.now() - stoppedAt).toBeLessThan(LONG_STOP_WAIT_MS);
  const steps = await stepsOf(intentId);
  expect(steps.fill?.state).toBe('done');
  // Nothing of this worker is left running: what it did not finish was journaled pending, not leased.
  const running = Object.values(steps).filter((s) => s.state === 'running');
  expect(running.map((s) => s.step)).toEqual([]);

  // The next worker finishes the intent.
  await beta.testClient.setAutomine(true);
  const b = await worker('worker-b');
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  await f.waitForStep(intentId, 'settle');
  await b.stop();
}, 120_000);

it('hands back the steps still running at its bound; another worker takes them at once and signs nothing twice', async () => {
  const c = await worker('worker-c');
  const intentId = await fillInThePool(c);
  const stoppedAt = Date.now();
  await c.stop();
  const took = Date.now() - stoppedAt;
  expect(took).toBeGreaterThanOrEqual(STOP_WAIT_MS);
  expect(took).toBeLessThan(STOP_WAIT_MS + STOP_SLACK_MS);
  const handedBack = await stepsOf(intentId);
  expect(handedBack.fill).toMatchObject({ state: 'pending', leaseOwner: null, leaseUntil: null });
  for (const step of Object.values(handedBack)) expect(step.leaseOwner).toBeNull();

  const startedAt = Date.now();
  const d = await worker('worker-d');
  // Taken at once, not after the 10 s lease a killed worker's steps wait out.
  await until('worker-d to lease the fill', async () => {
    const fill = (await stepsOf(intentId)).fill;
    return fill?.leaseOwner === 'worker-d' || fill?.state === 'done' ? true : undefined;
  });
  expect(Date.now() - startedAt).toBeLessThan(STEP_LEASE_MS / 2);
  await beta.testClient.setAutomine(true);
  await beta.testClient.mine({ blocks: 1 });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  await f.waitForStep(intentId, 'settle');

  const journal = await f.store.signedTransactions.listForIntent(intentId);
  const perPurpose = new Map<string, number>();
  for (const row of journal) perPurpose.set(row.purpose, (perPurpose.get(row.purpose) ?? 0) + 1);
  expect([...perPurpose.values()].every((n) => n === 1)).toBe(true);
  expect(journal.find((r) => r.purpose === 'solver-fill')?.status).toBe('mined');
  await d.stop();
}, 120_000);

it('wakes a worker already running when it hands steps back: the takeover does not wait for its idle poll', async () => {
  // The two workers below are the only ones running: no other one's idle poll can take the steps.
  const stopping = await worker('worker-e');
  const intentId = await fillInThePool(stopping);
  expect((await stepsOf(intentId)).fill).toMatchObject({ state: 'running', leaseOwner: 'worker-e' });
  // Running and idle before the hand-back: its first look at the journal (at start) found nothing to take.
  const taker = await worker('worker-f', STOP_WAIT_MS, IDLE_POLL_MS);
  await sleep(FIRST_LOOK_MS);
  expect((await stepsOf(intentId)).fill?.leaseOwner).toBe('worker-e');
  await stopping.stop();
  const handedBackAt = Date.now();
  await until('worker-f to lease the fill', async () => {
    const fill = (await stepsOf(intentId)).fill;
    return fill?.leaseOwner === 'worker-f' || fill?.state === 'done' ? true : undefined;
  });
  expect(Date.now() - handedBackAt).toBeLessThan(TAKEOVER_MS);
  await beta.testClient.setAutomine(true);
  await beta.testClient.mine({ blocks: 1 });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  await taker.stop();
}, 120_000);
