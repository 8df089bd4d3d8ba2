/**
 * The server process of bench/wait.ts: the real API server (store, intent services, Fastify; assembled as
 * `switchyard serve` does, through test/harness/app.ts) answering WaitIntentReceipt, driven by messages from the measuring process. bench/wait.ts compiles this file the
 * way `switchyard` runs the app (src/ from dist/, no tsx; see bin/compile-sources.js) unless --tsx.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { createSilentLogger } from '../src/internal/logger.ts';
import { createStore } from '../src/store/create-store.ts';
import type { Store } from '../src/store/types.ts';
import { startTestService, throwawayOperator } from '../test/harness/app.ts';
import { BENCH_CHAINS, BENCH_USDC } from './fixtures/chains.ts';
import { intentFixture, pooledRandomHex } from './fixtures/wire-intent.ts';

/** The server holds each call this long (ms): longer than ramp-up + the change phase, so none time out. */
const HOLD_MS = 120_000;

/**
 * Intents inserted side by side while loading: one after another, 2,000 took over the 120 s phase limit
 * on a loaded Postgres; the store's pool has 10 connections.
 */
const INSERT_CONCURRENCY = 10;

/** The project whose key the measuring process calls with; the intents are its. */
const BENCH_PROJECT = 'bench-wait';

const now = () => performance.timeOrigin + performance.now();

export type Target = { sqlitePath: string } | { databaseUrl: string };

// ------------------------------------------------------------------ messages between the two processes

/** Every message carries an id; the answer repeats it (a long `change` overlaps `stats` samples). */
export type ToServer = { id: number } & (
  | { type: 'start'; target: Target; intents: number }
  | { type: 'stats'; gc?: boolean }
  | { type: 'change'; rate: number }
  | { type: 'stop' }
);

export type FromServer = { id: number } & (
  | { type: 'ready'; url: string; key: string; intentIds: string[] }
  | {
      type: 'stats';
      rss: number;
      heapUsed: number;
      heapTotal: number;
      external: number;
      inFlight: number;
    }
  | { type: 'changed'; at: Record<string, number> }
  | { type: 'error'; message: string }
);

export type Question = ToServer extends infer Q ? (Q extends { id: number } ? Omit<Q, 'id'> : never) : never;
export type Answer = FromServer extends infer A ? (A extends { id: number } ? Omit<A, 'id'> : never) : never;

// ------------------------------------------------------------------ the server process

export async function serverRole(): Promise<void> {
  let store: Store | undefined;
  let close: (() => Promise<void>) | undefined;
  let intentIds: string[] = [];
  let inFlight = 0;
  let stopHeapSampling = async () => {};
  process.on('message', async (message: ToServer) => {
    const reply = (answer: Answer) => process.send?.({ ...answer, id: message.id });
    try {
      if (message.type === 'start') {
        store = await createStore({ ...message.target, log: createSilentLogger() });
        // Loaded before the server starts, as a server finds its database.
        const project = await store.projects.ensure(BENCH_PROJECT);
        intentIds = await insertWaitingIntents(store, project.id, message.intents);
        // Counts the calls in the handler by their store subscriptions (a call subscribes as it begins and
        // lets go as it answers): a wrapper around the handler added ~700 bytes per held call (promises
        // and closures of its own) to the memory measured.
        const subscribe = store.events.subscribe;
        store.events.subscribe = (intentId, listener) => {
          inFlight++;
          const unsubscribe = subscribe(intentId, listener);
          return () => {
            inFlight--;
            unsubscribe();
          };
        };
        // The process `switchyard serve` assembles, on this store; no engine runs (no intent here executes).
        const app = await startTestService({
          chains: BENCH_CHAINS,
          operator: throwawayOperator(),
          store,
          engine: { requestExecution: async () => {} },
          intentServices: { waitHoldMs: HOLD_MS },
          rateLimit: false,
          projectName: BENCH_PROJECT,
        });
        close = async () => {
          await app.stop();
          await store?.close();
        };
        stopHeapSampling = await startHeapSampling();
        reply({ type: 'ready', url: app.url, key: app.key, intentIds });
      } else if (message.type === 'stats') {
        if (message.gc) global.gc?.();
        const memory = process.memoryUsage();
        if (message.gc && process.env.BENCH_WAIT_HEAP_SPACES) printHeapSpaces();
        reply({
          type: 'stats',
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          heapTotal: memory.heapTotal,
          external: memory.external,
          inFlight,
        });
      } else if (message.type === 'change') {
        await stopHeapSampling();
        const stopProfile = await startProfile();
        const at = await changeAtRate(store!, intentIds, message.rate);
        await stopProfile();
        reply({ type: 'changed', at });
      } else if (message.type === 'stop') {
        await close?.();
        process.exit(0);
      }
    } catch (error) {
      reply({ type: 'error', message: (error as Error).stack ?? String(error) });
    }
  });
}

/**
 * BENCH_WAIT_CPU_PROF=FILE: a V8 CPU profile of the server during the change phase only (the wake-ups),
 * written to FILE (open it in Chrome DevTools), to find where a wake-up's time goes.
 */
async function startProfile(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_WAIT_CPU_PROF;
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * BENCH_WAIT_HEAP_PROF=FILE: a sampling heap profile of what is live when the change phase begins (the held
 * calls), written to FILE: where a held call's memory goes.
 */
async function startHeapSampling(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_WAIT_HEAP_PROF;
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 4096 });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * BENCH_WAIT_HEAP_SPACES=1: after each full collection, V8's heap spaces (size reserved, size live), to
 * tell live memory from heap the process keeps in reserve.
 */
function printHeapSpaces(): void {
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  const spaces = getHeapSpaceStatistics()
    .map((s) => `${s.space_name} ${mb(s.space_size)}/${mb(s.space_used_size)}`)
    .join(', ');
  process.stderr.write(`heap spaces (reserved/live MB): ${spaces}\n`);
}

/** COMMITTED intents with three UNKNOWN receipt rows: their receiptStates are [UNKNOWN, UNKNOWN, UNKNOWN]. */
async function insertWaitingIntents(store: Store, projectId: number, count: number): Promise<string[]> {
  const hex = pooledRandomHex();
  const [alpha, beta] = BENCH_CHAINS as [(typeof BENCH_CHAINS)[0], (typeof BENCH_CHAINS)[0]];
  const insertOne = async (): Promise<string> => {
    const { intent } = intentFixture(
      {
        projectId,
        originChainId: alpha.chainId,
        destinationChainId: beta.chainId,
        originTokenAddress: BENCH_USDC,
        destinationTokenAddress: BENCH_USDC,
      },
      hex,
    );
    await store.intents.insert(intent);
    await store.intents.updateStatus({ intentId: intent.intentId, to: 'COMMITTED', committedAt: new Date() });
    for (const [kind, chainId] of [
      ['deposit', alpha.chainId],
      ['origin', alpha.chainId],
      ['destination', beta.chainId],
    ] as const) {
      await store.transactions.upsert({ intentId: intent.intentId, kind, chainId, status: 'UNKNOWN' });
    }
    return intent.intentId;
  };
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = Math.min(INSERT_CONCURRENCY, count - ids.length);
    ids.push(...(await Promise.all(Array.from({ length: batch }, insertOne))));
  }
  return ids;
}

/** Moves each intent's deposit row to PENDING, `rate` intents per second; returns when each change began. */
async function changeAtRate(
  store: Store,
  intentIds: string[],
  rate: number,
): Promise<Record<string, number>> {
  const spacing = 1000 / rate;
  const start = now();
  const at: Record<string, number> = {};
  for (const [i, intentId] of intentIds.entries()) {
    const due = start + i * spacing;
    if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
    at[intentId] = now();
    await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: BENCH_CHAINS[0]!.chainId,
      status: 'PENDING',
    });
  }
  return at;
}

await serverRole();
