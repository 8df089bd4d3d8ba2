/**
 * A devnet, a store, the intent services and a real API server for the intent-service tests, the server
 * assembled as production does (test/harness/app.ts). The engine is a recording test double (the real one
 * is tested end to end separately); the clock is injectable so quote and execute windows can be crossed
 * without waiting.
 */
import { TrailsApi } from '@0xtrails/api';
import type { Address, PublicClient } from 'viem';
import { devnetOperator } from '../../../src/app/devnet-operator.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import type { CreateStoreOptions, Store } from '../../../src/store/index.ts';
import { createStore } from '../../../src/store/index.ts';
import { startTestService } from '../../harness/app.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';

export interface RecordingEngine {
  calls: { intentId: string; depositTransactionHash?: string; depositSignature?: unknown }[];
  /** When set, requestExecution throws it (to test how refusals surface). */
  failWith?: Error;
  /** Records what was asked, without the row ExecuteIntent passes along; the status is left to a read. */
  requestExecution(input: RecordingEngine['calls'][number] & { intent?: unknown }): Promise<undefined>;
}

export function createRecordingEngine(): RecordingEngine {
  const engine: RecordingEngine = {
    calls: [],
    async requestExecution(input) {
      if (engine.failWith) throw engine.failWith;
      const { intent: _row, ...call } = input;
      engine.calls.push(call);
      return undefined;
    },
  };
  return engine;
}

export interface Clock {
  now(): Date;
  advance(ms: number): void;
}

export function createClock(): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

export interface ServiceServer {
  url: string;
  close(): Promise<void>;
}

export interface Harness {
  net: TestDevnet;
  clients: Map<number, PublicClient>;
  engine: RecordingEngine;
  clock: Clock;
  /** A server on the caller's store (which the caller closes). */
  startServer(store: Store, options?: { waitHoldMs?: number }): Promise<ServiceServer>;
}

export async function startHarness(): Promise<Harness> {
  const net = await startTestDevnet();
  const clients = new Map(
    net.chains.map((c) => [c.entry.chainId, c.publicClient as unknown as PublicClient]),
  );
  const engine = createRecordingEngine();
  const clock = createClock();
  return {
    net,
    clients,
    engine,
    clock,
    async startServer(store, options = {}) {
      const app = await startTestService({
        chains: net.chainConfigs,
        operator: devnetOperator(net.devnet),
        store,
        // The tests' own project (openStoreWithKey), so the server adds no other.
        projectName: 'intents-test',
        engine,
        intentServices: { serviceFeeBps: 25n, now: clock.now, waitHoldMs: options.waitHoldMs },
        rateLimit: false,
      });
      return { url: app.url, close: () => app.stop() };
    },
  };
}

/** A store with one project and its access key. */
export async function openStoreWithKey(options: Partial<CreateStoreOptions> = { sqlitePath: ':memory:' }) {
  const store = await createStore({ log: createSilentLogger(), ...options });
  const project = await store.projects.ensure('intents-test');
  const { key } = await store.accessKeys.create({ projectId: project.id });
  return { store, key, projectId: project.id };
}

/** A devnet, a server on a fresh store of the tests' project (recording engine), and the official client on it. */
export interface ServiceSuite {
  h: Harness;
  store: Store;
  key: string;
  srv: ServiceServer;
  api: TrailsApi;
  /** The devnet's three chains. */
  chains: [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  /** The devnet's funded user. */
  user: Address;
  /** Stops the server, closes the store and stops the devnet. */
  stop(): Promise<void>;
}

export async function startServiceSuite(): Promise<ServiceSuite> {
  const h = await startHarness();
  const { store, key } = await openStoreWithKey();
  const srv = await h.startServer(store).catch(async (error) => {
    await store.close();
    await h.net.stop();
    throw error;
  });
  return {
    h,
    store,
    key,
    srv,
    api: new TrailsApi(key, { hostname: srv.url }),
    chains: h.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain],
    user: h.net.devnet.accounts.user.address,
    stop: async () => {
      await srv.close();
      await store.close();
      await h.net.stop();
    },
  };
}
