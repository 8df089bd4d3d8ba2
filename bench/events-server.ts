/**
 * The server process of bench/events.ts: the real API server (assembled as `switchyard serve` does, through
 * test/harness/app.ts) serving GET /events, driven by messages from the measuring process. It counts its
 * open streams through the events observer (the hook the metrics use) and changes intents through the
 * store when told. Compiled like `switchyard` runs the app unless --tsx (see bench/wait-server.ts).
 */
import { performance } from 'node:perf_hooks';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSilentLogger } from '../src/internal/logger.ts';
import { createStore } from '../src/store/create-store.ts';
import type { Store } from '../src/store/types.ts';
import { startTestService } from '../test/harness/app.ts';
import { BENCH_CHAINS, BENCH_USDC } from './fixtures/chains.ts';
import { intentFixture, pooledRandomHex } from './fixtures/wire-intent.ts';

/** Intents inserted side by side while loading (the Postgres pool has 10 connections). */
const INSERT_CONCURRENCY = 10;
const BENCH_PROJECT = 'bench-events';

const now = () => performance.timeOrigin + performance.now();

export type Target = { sqlitePath: string } | { databaseUrl: string };

export type ToServer = { id: number } & (
  | { type: 'start'; target: Target; intents: number }
  | { type: 'stats'; gc?: boolean }
  | { type: 'change'; rate: number }
  | { type: 'stop' }
);

export type FromServer = { id: number } & (
  | { type: 'ready'; url: string; key: string; intentIds: string[] }
  | { type: 'stats'; rss: number; heapUsed: number; heapTotal: number; external: number; open: number }
  | { type: 'changed'; at: Record<string, number> }
  | { type: 'error'; message: string }
);

export type Question = ToServer extends infer Q ? (Q extends { id: number } ? Omit<Q, 'id'> : never) : never;
type Answer = FromServer extends infer A ? (A extends { id: number } ? Omit<A, 'id'> : never) : never;

async function serverRole(): Promise<void> {
  let store: Store | undefined;
  let close: (() => Promise<void>) | undefined;
  let intentIds: string[] = [];
  let open = 0;
  process.on('message', async (message: ToServer) => {
    const reply = (answer: Answer) => process.send?.({ ...answer, id: message.id });
    try {
      if (message.type === 'start') {
        store = await createStore({ ...message.target, log: createSilentLogger() });
        const project = await store.projects.ensure(BENCH_PROJECT);
        intentIds = await insertCommittedIntents(store, project.id, message.intents);
        const account = privateKeyToAccount(generatePrivateKey());
        const app = await startTestService({
          chains: BENCH_CHAINS,
          operator: { relayer: account, solver: account, attester: account, feeCollector: account.address },
          store,
          engine: { requestExecution: async () => {} },
          rateLimit: false,
          projectName: BENCH_PROJECT,
          events: {
            observer: {
              streamsChanged: (count) => {
                open = count;
              },
            },
          },
        });
        close = async () => {
          await app.stop();
          await store?.close();
        };
        reply({ type: 'ready', url: app.url, key: app.key, intentIds });
      } else if (message.type === 'stats') {
        if (message.gc) global.gc?.();
        const memory = process.memoryUsage();
        reply({
          type: 'stats',
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          heapTotal: memory.heapTotal,
          external: memory.external,
          open,
        });
      } else if (message.type === 'change') {
        reply({ type: 'changed', at: await changeAtRate(store!, intentIds, message.rate) });
      } else if (message.type === 'stop') {
        await close?.();
        process.exit(0);
      }
    } catch (error) {
      reply({ type: 'error', message: (error as Error).stack ?? String(error) });
    }
  });
}

/** COMMITTED intents with their three receipt rows at UNKNOWN. */
async function insertCommittedIntents(store: Store, projectId: number, count: number): Promise<string[]> {
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
    await store.intents.insert({
      ...intent,
      transactions: [
        { kind: 'deposit', chainId: alpha.chainId, status: 'UNKNOWN' },
        { kind: 'origin', chainId: alpha.chainId, status: 'UNKNOWN' },
        { kind: 'destination', chainId: beta.chainId, status: 'UNKNOWN' },
      ],
    });
    await store.intents.updateStatus({ intentId: intent.intentId, to: 'COMMITTED', committedAt: new Date() });
    return intent.intentId;
  };
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = Math.min(INSERT_CONCURRENCY, count - ids.length);
    ids.push(...(await Promise.all(Array.from({ length: batch }, insertOne))));
  }
  return ids;
}

/** Moves each intent's deposit row to PENDING (one event each), `rate` intents per second. */
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
    await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: BENCH_CHAINS[0]!.chainId,
      status: 'PENDING',
      from: ['UNKNOWN'],
    });
  }
  return at;
}

await serverRole();
