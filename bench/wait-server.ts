/**
 * The server process of bench/wait.ts: the real API server (store, intent services, Fastify; assembled as
 * `switchyard serve` does, through test/harness/app.ts) answering WaitIntentReceipt, driven by messages from
 * the measuring process. bench/wait.ts compiles this file the way `switchyard` runs the app (src/ from dist/,
 * no tsx; see bin/compile-sources.js) unless --tsx.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import type { Store } from '../src/store/types.ts';
import { startTestService, throwawayOperator } from '../test/harness/app.ts';
import { BENCH_CHAINS } from './fixtures/chains.ts';
import { changeAtRate } from './support/change-at-rate.ts';
import { startCpuProfile } from './support/cpu-profile.ts';
import { loadIntents } from './support/load-intents.ts';
import { serveBenchMessages } from './support/serve-bench-messages.ts';

/** The server holds each call this long (ms): longer than ramp-up + the change phase, so none time out. */
const HOLD_MS = 120_000;

/** The project whose key the measuring process calls with; the intents are its. */
const BENCH_PROJECT = 'bench-wait';

const [alpha, beta] = BENCH_CHAINS as [(typeof BENCH_CHAINS)[0], (typeof BENCH_CHAINS)[0]];

/** What the server counts beside its memory: the WaitIntentReceipt calls in its handler. */
export interface WaitCounts {
  inFlight: number;
}

function waitServer(): void {
  let inFlight = 0;
  let stopHeapSampling = async () => {};
  serveBenchMessages<WaitCounts>({
    project: BENCH_PROJECT,
    // COMMITTED intents with three UNKNOWN receipt rows: their receiptStates are [UNKNOWN, UNKNOWN, UNKNOWN].
    load: (store, projectId, count) =>
      loadIntents(projectId, count, async (intent) => {
        await store.intents.insert(intent);
        await store.intents.updateStatus({
          intentId: intent.intentId,
          to: 'COMMITTED',
          committedAt: new Date(),
        });
        for (const [kind, chainId] of [
          ['deposit', alpha.chainId],
          ['origin', alpha.chainId],
          ['destination', beta.chainId],
        ] as const) {
          await store.transactions.upsert({ intentId: intent.intentId, kind, chainId, status: 'UNKNOWN' });
        }
      }),
    serve: async (store) => {
      countHeldCalls(store, (delta) => {
        inFlight += delta;
      });
      // The process `switchyard serve` assembles, on this store; no engine runs (no intent here executes).
      const app = await startTestService({
        chains: BENCH_CHAINS,
        operator: throwawayOperator(),
        store,
        engine: { requestExecution: async () => undefined },
        intentServices: { waitHoldMs: HOLD_MS },
        rateLimit: false,
        projectName: BENCH_PROJECT,
      });
      stopHeapSampling = await startHeapSampling();
      return app;
    },
    counts: () => ({ inFlight }),
    collected: () => {
      if (process.env.BENCH_WAIT_HEAP_SPACES) printHeapSpaces();
    },
    // Each intent's deposit row to PENDING (each upsert publishes on store.events).
    change: async (store, intentIds, rate) => {
      await stopHeapSampling();
      const stopProfile = await startProfile();
      const at = await changeAtRate(intentIds, rate, async (intentId) => {
        await store.transactions.upsert({
          intentId,
          kind: 'deposit',
          chainId: alpha.chainId,
          status: 'PENDING',
        });
      });
      await stopProfile();
      return at;
    },
  });
}

/**
 * Counts the calls in the handler by their store subscriptions (a call subscribes as it begins and lets go
 * as it answers): a wrapper around the handler added ~700 bytes per held call (promises and closures of its
 * own) to the memory measured.
 */
function countHeldCalls(store: Store, count: (delta: 1 | -1) => void): void {
  const subscribe = store.events.subscribe;
  store.events.subscribe = (intentId, listener) => {
    count(1);
    const unsubscribe = subscribe(intentId, listener);
    return () => {
      count(-1);
      unsubscribe();
    };
  };
}

/**
 * BENCH_WAIT_CPU_PROF=FILE: a V8 CPU profile of the server during the change phase only (the wake-ups),
 * written to FILE (open it in Chrome DevTools), to find where a wake-up's time goes.
 */
function startProfile(): Promise<() => Promise<void>> {
  return startCpuProfile(process.env.BENCH_WAIT_CPU_PROF);
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

waitServer();
