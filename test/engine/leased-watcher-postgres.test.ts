/**
 * The deposit watcher with two workers (two engines, each on its own pool) on one PostgreSQL database: the
 * worker holding the `deposit-watch` task lease runs the rounds and the other skips them; a deposit made
 * without ExecuteIntent is picked up; when the holder dies (cut off from the database: it renews nothing),
 * the other takes the watch over once the lease has run out, and a deposit made then is picked up by it.
 * Without the lease both workers scan every round.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEPOSIT_WATCH_TASK } from '../../src/engine/deposit-watcher.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type CutOffStore, cutOffStore } from './support/cut-off-store.ts';
import { type EngineFixture, startEngineFixture, usdcRequest } from './support/engine-fixture.ts';

/** The task lease in this test (ms): a dead holder's watch is taken over within it. */
const TASK_LEASE_MS = 2_000;
/** How long the two workers' rounds are counted (ms): ten of the fixture's 100 ms rounds. */
const COUNT_FOR_MS = 1_000;
const SCANS = 'intents.listByStatus';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let f: EngineFixture;
const workers: CutOffStore[] = [];
const engines: IntentEngine[] = [];
beforeAll(async () => {
  f = await startEngineFixture('postgres');
}, 180_000);
afterAll(async () => {
  // The workers' pools end before the fixture drops the database.
  for (const e of engines) await e.stop();
  for (const w of workers) await w.store.close();
  await f?.stop();
});

async function holder(): Promise<string | undefined> {
  const lease = await f.store.taskLeases.get(DEPOSIT_WATCH_TASK);
  return lease && lease.leaseUntil.getTime() > Date.now() ? lease.owner : undefined;
}

async function until(what: string, condition: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what}`);
    await sleep(50);
  }
}

/** A committed USDC alpha→beta intent paid without ExecuteIntent; resolves once it has succeeded. */
async function depositWithoutExecute(): Promise<string> {
  const [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  const { intentId, plan } = await f.commit(usdcRequest(f.net, alpha, beta, '12'));
  await f.deposit(plan);
  const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
  expect({ intentId, status: done.status }).toEqual({ intentId, status: 'SUCCEEDED' });
  return intentId;
}

it('runs the deposit watch on one worker, and on the other once the first dies', async () => {
  for (let i = 0; i < 2; i++) {
    workers.push(cutOffStore(await createStore({ ...f.database.options, log: createSilentLogger() })));
  }
  const [a, b] = workers as [CutOffStore, CutOffStore];
  const engine = async (name: string, w: CutOffStore) =>
    engines.push(
      await f.startEngine({ store: w.store, engine: { workerId: name, taskLeaseMs: TASK_LEASE_MS } }),
    );
  await engine('worker-a', a);
  // A few of its 100 ms rounds: worker-a takes the watch before worker-b exists.
  await sleep(500);
  await engine('worker-b', b);

  const before = [a.calls(SCANS), b.calls(SCANS)];
  await sleep(COUNT_FOR_MS);
  const scans = { a: a.calls(SCANS) - before[0]!, b: b.calls(SCANS) - before[1]! };
  expect(scans).toEqual({ a: scans.a, b: 0 });
  expect(scans.a).toBeGreaterThanOrEqual(3);
  expect(await holder()).toBe('worker-a');
  await depositWithoutExecute();
  expect(await holder()).toBe('worker-a');

  // worker-a dies: it renews nothing from now on. worker-b takes the watch once the lease has run out.
  a.cut();
  const cutAt = Date.now();
  await until('worker-b to take the watch over', async () => (await holder()) === 'worker-b');
  expect(Date.now() - cutAt).toBeLessThan(TASK_LEASE_MS + 2_000);
  const bScans = b.calls(SCANS);
  await depositWithoutExecute();
  expect(b.calls(SCANS)).toBeGreaterThan(bScans);
  // Back for the fixture's clean stop; the watch stays with worker-b.
  a.reconnect();
  await sleep(300);
  expect(await holder()).toBe('worker-b');
}, 120_000);
