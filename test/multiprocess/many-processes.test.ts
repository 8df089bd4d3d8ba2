/**
 * Many processes on one PostgreSQL database, laid out as docs/operations.md says ("Several processes on one
 * database": its `processes` blocks run as written): one devnet, two `serve --role api` and two
 * `serve --role worker` child processes on a fresh database (DATABASE_URL's server, or an embedded one).
 * 100 intents of six route kinds (cross-chain, swap-and-bridge, same-chain swap, DAI in, native ETH in, a
 * destination call that reverts) go through both API processes with the official client; a few are paid
 * without ExecuteIntent and left to the deposit watcher. Mid-run the worker holding the deposit watch is
 * SIGKILLed with steps in flight, then the other worker SIGTERMed with steps in flight (the graceful stop),
 * and the first API process SIGKILLed while WaitIntentReceipt calls are held on it; each is restarted.
 * Afterwards:
 *
 * - every intent ends once, as routed: SUCCEEDED, or REFUNDED with the filled amount back to its owner;
 * - each order was opened, filled and settled once; every operator transaction is journaled at its nonce and
 *   each journaled nonce was used once (test/resilience/support/audit.ts);
 * - no relayer or solver nonce is left with a gap: pending = latest on every chain, and the database's next
 *   nonce is the chain's;
 * - every WaitIntentReceipt cut off by the API kill was answered by the other process when the client
 *   called again, and every wait ended done;
 * - the deposit watch moved off the killed worker, and a worker on the machine ended the killed worker's
 *   leases instead of waiting them out;
 * - the worker SIGTERMed mid-run exited 0 within its bound and left no step leased to it;
 * - each process stops on SIGTERM within its bound;
 * - every token on every chain is conserved.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Intent } from '@0xtrails/api';
import { type Address, erc20Abi, type Hex, isAddressEqual, parseEventLogs } from 'viem';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { DEPOSIT_WATCH_TASK } from '../../src/engine/deposit-watcher.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { isTerminal } from '../../src/store/statuses.ts';
import type { Store } from '../../src/store/types.ts';
import { freshAddress } from '../e2e/support/requests.ts';
import { createTestDatabase, rawQuery, type TestDatabase } from '../harness/database.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import {
  type AuditedIntent,
  auditSends,
  conservation,
  expectConserved,
} from '../resilience/support/audit.ts';
import { createDepositQueue, waitForStepDone, waitForTerminal } from '../resilience/support/intents.ts';
import { type Route, routeMix } from '../resilience/support/route-mix.ts';
import { createFailoverClient, type FailoverClient, type ReceiptWait } from './support/failover-client.ts';
import { createProcessLayout, type ProcessLayout } from './support/process-layout.ts';
import { logEntries, type RoleProcess } from './support/role-process.ts';

/** The issue's size: enough intents in flight on both API processes and both workers across both kills. */
const INTENTS = 100;
/** Intents submitted at once (quote, commit, deposit, execute); their receipt waits run beside. */
const IN_FLIGHT = 12;
/** Every this many intents of the plain USDC route is paid without ExecuteIntent (the deposit watcher's). */
const WATCHER_ONLY_EVERY = 3;
/**
 * Once this many intents were submitted: the deposit watch's worker is SIGKILLed, the other worker SIGTERMed
 * (after the first is back), the first API process SIGKILLed.
 */
const KILL_WORKER_AT = 25;
const STOP_WORKER_AT = 40;
const KILL_API_AT = 55;
/** WaitIntentReceipt calls held on the API process when it is killed, at least. */
const HELD_AT_API_KILL = 3;
/** A killed process stays down this long before its restart (ms): calls meanwhile go to the other one. */
const DOWN_FOR_MS = 2_000;
/** Each intent final and settled once the run is over (ms): a killed worker's steps wait at most a 10 s lease. */
const FINISH_TIMEOUT_MS = 120_000;
/** A worker's SIGTERM: ENGINE_STOP_WAIT_MS (10 s) for its steps, then its hand-back and exit (ms). */
const STOP_BOUND_MS = 15_000;
/** Connections per process (docs/operations.md, "PostgreSQL settings"): 4 processes fit a shared server. */
const POOL_SIZE = '5';
/** A run still going after this long (ms) is hung: it logs what it waits for (a run takes 30–100 s). */
const HUNG_AFTER_MS = 300_000;
/** Waiting for a state of the run (ms): each comes within seconds; waits on submissions restart while they move. */
const WAIT_LIMIT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let net: TestDevnet;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let database: TestDatabase;
let store: Store;
let key: string;
let workDir: string;
let layout: ProcessLayout;
const startBlocks = new Map<number, bigint>();

beforeAll(async () => {
  [net, database] = await Promise.all([
    startTestDevnet({ keptStates: 'all' }),
    createTestDatabase('postgres'),
  ]);
  [alpha, beta, gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  store = await createStore({ ...database.options, log: createSilentLogger() });
  const project = await store.projects.ensure('multiprocess');
  // The run's own pace, not the per-key limit, is under test.
  ({ key } = await store.accessKeys.create({ projectId: project.id, rateLimitPerMinute: 100_000 }));
  workDir = await mkdtemp(path.join(tmpdir(), 'switchyard-multiprocess-'));
  layout = await createProcessLayout({
    net,
    databaseUrl: database.options.databaseUrl!,
    workDir,
    apis: 2,
    // Any free port for each process's metrics listener, if it has one.
    env: { DATABASE_POOL_SIZE: POOL_SIZE, METRICS_PORT: '0' },
  });
  // The first start compiles the sources and migrates the database; the others then start together.
  await layout.start('api', 0);
  await Promise.all([layout.start('api', 1), layout.start('worker', 0), layout.start('worker', 1)]);
  for (const c of net.chains) startBlocks.set(c.entry.chainId, await c.publicClient.getBlockNumber());
}, 240_000);

afterAll(async () => {
  for (const p of layout?.running.values() ?? []) await p.kill();
  await store?.close();
  await database?.drop();
  await net?.stop();
  if (workDir && !process.env.KEEP_MULTIPROCESS_LOGS) await rm(workDir, { recursive: true, force: true });
  else if (workDir) console.log(`multiprocess logs kept in ${workDir}`);
});

interface Submitted {
  index: number;
  route: Route;
  recipient: Address;
  intent: Intent;
  executed: boolean;
}

/**
 * `read`'s first defined value. `progress`: a count that keeps the wait going while it grows (intents
 * submitted): a loaded machine submits slowly, and only a run that stops moving for WAIT_LIMIT_MS fails.
 */
async function until<T>(
  what: string,
  read: () => Promise<T | undefined> | T | undefined,
  progress?: () => number,
): Promise<T> {
  let since = Date.now();
  let seen = progress?.();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    const now = progress?.();
    if (now !== seen) {
      seen = now;
      since = Date.now();
    }
    if (Date.now() - since > WAIT_LIMIT_MS) throw new Error(`still waiting for ${what}`);
    await sleep(100);
  }
}

/** All of `promises`, or an error naming what `describe` says is unfinished once `ms` have passed. */
async function allWithin<T>(
  promises: Promise<T>[],
  ms: number,
  describe: () => Promise<string>,
): Promise<T[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      describe().then(
        (what) => reject(new Error(`not finished after ${ms} ms: ${what}`)),
        (error: unknown) => reject(error),
      );
    }, ms);
  });
  try {
    return await Promise.race([Promise.all(promises), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The intents not final yet, with their receipt rows and steps: what a hung run was waiting for. */
async function describeUnfinished(submitted: Submitted[]): Promise<string> {
  const lines: string[] = [];
  for (const { intent, route } of submitted) {
    const row = await store.intents.getForEngine(intent.intentId);
    if (row && isTerminal(row.status)) continue;
    const rows = await store.transactions.list(intent.intentId);
    const steps = await store.steps.list(intent.intentId);
    lines.push(
      `${intent.intentId} (${route.name}) ${row?.status}; rows ${rows.map((r) => `${r.kind}:${r.status}`).join(' ')}; steps ${steps.map((t) => `${t.step}:${t.state}/${t.attempts}${t.lastError ? ` (${t.lastError})` : ''}`).join(' ')}`,
    );
  }
  return lines.length > 0 ? lines.join('\n') : 'every intent is final; a receipt wait did not end';
}

const chainOf = (chainId: number) => net.chains.find((c) => c.entry.chainId === chainId)!;

/** One intent as a wallet drives it, through its preferred API process: quote, commit, deposit, execute. */
async function submit(
  client: FailoverClient,
  index: number,
  route: Route,
  queue: ReturnType<typeof createDepositQueue>,
): Promise<Submitted> {
  const prefer = index % 2;
  const recipient = freshAddress();
  const request = route.request(recipient);
  const { intent } = await client.call(prefer, (api) => api.quoteIntent(request));
  await client.call(prefer, (api) => api.commitIntent({ intent }));
  const origin = chainOf(request.originChainId);
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex; value?: string };
  const hash = await queue(origin.entry.chainId, async () => {
    const sent = await origin
      .walletFor('user')
      .sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
    await origin.publicClient.waitForTransactionReceipt({ hash: sent });
    return sent;
  });
  const executed = !(route.name === 'USDC alpha→beta' && index % (6 * WATCHER_ONLY_EVERY) === 0);
  if (executed) {
    await client.call(prefer, async (api) => {
      try {
        await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: hash });
      } catch (error) {
        // A repeat after the first call's answer was lost to a kill: the intent may have ended already.
        const row = await store.intents.getForEngine(intent.intentId);
        if (!row || !isTerminal(row.status)) throw error;
      }
    });
  }
  return { index, route, recipient, intent, executed };
}

it(`${INTENTS} intents through two API processes and two workers on one database, one of each SIGKILLed`, async () => {
  const started = Date.now();
  // A run this long is hung: say what it was waiting for before the test's own timeout ends it unexplained.
  const watchdog = setTimeout(() => {
    describeUnfinished(submitted).then(
      (what) => console.error(`multiprocess run still going after ${HUNG_AFTER_MS} ms: ${what}`),
      (error: unknown) => console.error('multiprocess run hung; its state could not be read', error),
    );
  }, HUNG_AFTER_MS);
  onTestFinished(() => clearTimeout(watchdog));
  const client = createFailoverClient(key, layout.apiUrls);
  const kinds = routeMix({ alpha, beta, gamma, svc: { net } });
  const plan = Array.from({ length: INTENTS }, (_, i) => kinds[i % kinds.length]!);
  const queue = createDepositQueue();
  const submitted: Submitted[] = [];
  const waits: Promise<ReceiptWait>[] = [];
  const cursor = { next: 0 };
  const submitter = async () => {
    while (cursor.next < plan.length) {
      const index = cursor.next++;
      const sent = await submit(client, index, plan[index]!, queue);
      submitted.push(sent);
      waits.push(client.waitForReceipt(sent.intent.intentId, index % 2));
    }
  };

  /** The ids of the worker's running steps, by its worker id. */
  const runningSteps = async (workerId: string | undefined) =>
    Number(
      (
        await rawQuery<{ n: string }>(
          database,
          `select count(*) as n from intent_steps where state = 'running' and lease_owner = '${workerId}'`,
        )
      )[0]!.n,
    );

  const submittedCount = () => submitted.length;

  // The workers: the deposit watch's holder SIGKILLed with steps in flight, later the other one SIGTERMed.
  const workerChaos = async () => {
    await until(
      'intents for the worker kill',
      () => (submitted.length >= KILL_WORKER_AT ? true : undefined),
      submittedCount,
    );
    const victim = await until('the deposit watch’s worker with steps in flight', async () => {
      const owner = (await store.taskLeases.get(DEPOSIT_WATCH_TASK))?.owner;
      const worker = [...layout.running.values()].find((p) => p.workerId === owner);
      const running = worker ? await runningSteps(owner) : 0;
      return worker && running > 0 ? { worker, running } : undefined;
    });
    await victim.worker.kill();
    const killedAtMs = Date.now() - started;
    await sleep(DOWN_FOR_MS);
    const restarted = await layout.start('worker', Number(victim.worker.name.split('-')[1]));

    await until(
      'intents for the worker stop',
      () => (submitted.length >= STOP_WORKER_AT ? true : undefined),
      submittedCount,
    );
    const other = [...layout.running.values()].find((p) => p.role === 'worker' && p !== restarted)!;
    const stepsAtStop = await until('the other worker with steps in flight', async () => {
      const running = await runningSteps(other.workerId);
      return running > 0 ? running : undefined;
    });
    const stop = await other.stop();
    const leftRunning = await runningSteps(other.workerId);
    await layout.start('worker', Number(other.name.split('-')[1]));
    return {
      killed: { name: victim.worker.name, workerId: victim.worker.workerId, stepsRunning: victim.running },
      killedAtMs,
      restartedAs: restarted.workerId,
      stopped: {
        name: other.name,
        workerId: other.workerId,
        stepsRunning: stepsAtStop,
        ...stop,
        leftRunning,
      },
    };
  };

  // The first API process, SIGKILLed while WaitIntentReceipt calls are held on it.
  const apiChaos = async () => {
    await until(
      'intents for the API kill',
      () => (submitted.length >= KILL_API_AT && client.heldOn(0) >= HELD_AT_API_KILL ? true : undefined),
      submittedCount,
    );
    const heldAtKill = client.heldOn(0);
    const killedAt = Date.now();
    await layout.running.get('api-0')!.kill();
    await sleep(DOWN_FOR_MS);
    await layout.start('api', 0);
    return { killedAt, heldAtKill };
  };

  const [workers, api] = await Promise.all([
    workerChaos(),
    apiChaos(),
    ...Array.from({ length: IN_FLIGHT }, submitter),
  ]);
  const receiptWaits = await allWithin(waits, FINISH_TIMEOUT_MS, () => describeUnfinished(submitted));

  // Every intent ends once, as routed, and cross-chain ones are settled.
  const outcomes: Record<string, number> = {};
  for (const { route, intent } of submitted) {
    const done = await waitForTerminal({ store }, intent.intentId, FINISH_TIMEOUT_MS);
    expect({ route: route.name, status: done.status }).toEqual({ route: route.name, status: route.expected });
    if (done.originChainId !== done.destinationChainId) {
      await waitForStepDone({ store }, intent.intentId, 'settle', FINISH_TIMEOUT_MS);
    }
    outcomes[done.status] = (outcomes[done.status] ?? 0) + 1;
  }
  const allFinalAfterMs = Date.now() - started;
  expect(submitted.length).toBe(INTENTS);

  // The deposit watch left the killed worker; the intents left to it all ran.
  const watch = await store.taskLeases.get(DEPOSIT_WATCH_TASK);
  expect(watch?.owner).not.toBe(workers.killed.workerId);
  expect(workers.killed.stepsRunning).toBeGreaterThan(0);
  // The worker SIGTERMed mid-run stopped within its bound and left no step leased to it: each one it ran
  // ended, or was handed back for the other worker.
  expect({ exit: workers.stopped.exit, leftRunning: workers.stopped.leftRunning }).toEqual({
    exit: '0',
    leftRunning: 0,
  });
  expect(workers.stopped.ms).toBeLessThan(STOP_BOUND_MS);
  expect(submitted.filter((s) => !s.executed).length).toBeGreaterThanOrEqual(4);

  // Every WaitIntentReceipt the API kill cut off was answered by the other process at the client's next call.
  const cutOff = receiptWaits.flatMap((wait) =>
    wait.calls
      .map((call, i) => ({ wait, call, next: wait.calls[i + 1] }))
      .filter(({ call }) => call.api === 0 && call.outcome === 'cut off' && call.endedAt >= api.killedAt),
  );
  expect(cutOff.length).toBeGreaterThanOrEqual(HELD_AT_API_KILL);
  for (const { wait, next } of cutOff) {
    expect({ intentId: wait.intentId, next: next && { api: next.api, outcome: next.outcome } }).toEqual({
      intentId: wait.intentId,
      next: { api: 1, outcome: 'answered' },
    });
  }
  for (const wait of receiptWaits) expect(wait.calls.at(-1)?.done).toBe(true);

  // Each process stops on SIGTERM within its bound, cleanly.
  const stops: Record<string, { exit: string; ms: number }> = {};
  for (const [name, p] of [...layout.running]) stops[name] = await (p as RoleProcess).stop();
  for (const [name, stop] of Object.entries(stops)) {
    expect({ name, exit: stop.exit }).toEqual({ name, exit: '0' });
    expect(stop.ms).toBeLessThan(STOP_BOUND_MS);
  }
  // The killed worker's leases were ended by a worker on this machine (its sibling, or its restart), not
  // waited out (docs/engine.md, "A worker ends the leases of workers that died on its machine").
  const killedLeasesEndedBy = await until('a worker logging the end of the killed worker’s leases', () =>
    leasesEndedBy(layout, workers.killed.workerId!),
  );

  const audited: AuditedIntent[] = submitted.map(({ intent }) => ({
    intentId: intent.intentId,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    originAddress: intent.originIntentAddress as Address,
    destinationAddress: (intent.destinationIntentAddress || intent.originIntentAddress) as Address,
  }));
  const { operatorTransactions } = await auditSends({ net, database }, audited, startBlocks);
  await expectNoNonceGap();
  await expectRefundsReturned(submitted.filter((s) => s.route.expected === 'REFUNDED'));
  const created = submitted.flatMap(({ recipient, intent }) =>
    [recipient, intent.originIntentAddress, intent.destinationIntentAddress].filter(Boolean),
  ) as Address[];
  const lines = await conservation({ net }, startBlocks, created);
  console.log(
    JSON.stringify(
      {
        intents: submitted.length,
        outcomes,
        allFinalAfterMs,
        workers: { ...workers, killedLeasesEndedBy },
        api: { ...api, killedAtMs: api.killedAt - started },
        waitsCutOff: cutOff.length,
        operatorTransactions,
        stops,
      },
      null,
      1,
    ),
  );
  expectConserved(lines);
}, 600_000);

/** The workers whose log says they ended `owner`'s leases, with what they ended; undefined while none has. */
async function leasesEndedBy(processes: ProcessLayout, owner: string) {
  const ended = [];
  for (const name of ['worker-0', 'worker-1']) {
    const text = await readFile(processes.logPath(name), 'utf8').catch(() => '');
    for (const entry of logEntries(text, 'ended the leases of workers that died on this machine')) {
      if ((entry.owners as string[]).includes(owner))
        ended.push({ by: name, steps: entry.steps, tasks: entry.tasks });
    }
  }
  return ended.length > 0 ? ended : undefined;
}

/** Per chain and operator key: nothing pending beyond what is mined, and the database's next nonce is the chain's. */
async function expectNoNonceGap(): Promise<void> {
  const accounts = net.devnet.accounts;
  const stored = await rawQuery<{ chain_id: number; address: string; next_nonce: string }>(
    database,
    'select chain_id, address, next_nonce from nonces',
  );
  for (const chain of net.chains) {
    for (const who of [accounts.relayer!.address, accounts.solver!.address]) {
      const [latest, pending] = await Promise.all([
        chain.publicClient.getTransactionCount({ address: who, blockTag: 'latest' }),
        chain.publicClient.getTransactionCount({ address: who, blockTag: 'pending' }),
      ]);
      const row = stored.find(
        (r) => Number(r.chain_id) === chain.entry.chainId && isAddressEqual(r.address as Address, who),
      );
      expect({
        chain: chain.entry.chainId,
        who,
        pending,
        next: row ? Number(row.next_nonce) : latest,
      }).toEqual({
        chain: chain.entry.chainId,
        who,
        pending: latest,
        next: latest,
      });
    }
  }
}

/** A REFUNDED intent's refund transaction returned to its owner everything the fill put in its account. */
async function expectRefundsReturned(refunded: Submitted[]): Promise<void> {
  expect(refunded.length).toBeGreaterThan(0);
  for (const { intent } of refunded) {
    const chain = chainOf(intent.destinationChainId);
    const account = intent.destinationIntentAddress as Address;
    const refund = (await store.transactions.list(intent.intentId)).find((r) => r.kind === 'refund');
    const fill = (await store.signedTransactions.listForIntent(intent.intentId)).find(
      (r) => r.purpose === 'solver-fill' && r.status === 'mined',
    );
    expect({ refund: refund?.status, fill: fill?.status }).toEqual({ refund: 'SUCCEEDED', fill: 'mined' });
    const moved = async (hash: string, from: Address | undefined, to: Address | undefined) => {
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: hash as Hex });
      const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
      return transfers
        .filter((t) => (!from || isAddressEqual(t.args.from, from)) && (!to || isAddressEqual(t.args.to, to)))
        .reduce((sum, t) => sum + t.args.value, 0n);
    };
    const filled = await moved(fill!.hash, undefined, account);
    const returned = await moved(refund!.txnHash!, account, intent.ownerAddress as Address);
    expect({ intentId: intent.intentId, returned }).toEqual({ intentId: intent.intentId, returned: filled });
    expect(filled).toBeGreaterThan(0n);
  }
}
