/**
 * A devnet, a store, the intent services and a real API server for the intent-service tests. The engine is
 * a recording test double (the real one is tested end to end separately); the clock is injectable so quote
 * and execute windows can be crossed without waiting.
 */
import type { PublicClient } from 'viem';
import { type ApiServer, createApiServer } from '../../../src/api/server.ts';
import { createIntentServices, type IntentServices } from '../../../src/intents/services/index.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import { createPriceSource } from '../../../src/pricing/index.ts';
import type { CreateStoreOptions, Store } from '../../../src/store/index.ts';
import { createStore } from '../../../src/store/index.ts';
import { startTestDevnet, type TestDevnet } from '../../harness/devnet.ts';

export interface RecordingEngine {
  calls: { intentId: string; depositTransactionHash?: string; depositSignature?: unknown }[];
  /** When set, requestExecution throws it (to test how refusals surface). */
  failWith?: Error;
  requestExecution(input: RecordingEngine['calls'][number]): Promise<void>;
}

export function createRecordingEngine(): RecordingEngine {
  const engine: RecordingEngine = {
    calls: [],
    async requestExecution(input) {
      if (engine.failWith) throw engine.failWith;
      engine.calls.push(input);
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
  server: ApiServer;
  url: string;
  services: IntentServices;
  close(): Promise<void>;
}

export interface Harness {
  net: TestDevnet;
  clients: Map<number, PublicClient>;
  engine: RecordingEngine;
  clock: Clock;
  startServer(store: Store, options?: { waitHoldMs?: number }): Promise<ServiceServer>;
}

export async function startHarness(): Promise<Harness> {
  const net = await startTestDevnet();
  const clients = new Map(
    net.chains.map((c) => [c.entry.chainId, c.publicClient as unknown as PublicClient]),
  );
  const engine = createRecordingEngine();
  const clock = createClock();
  const log = createSilentLogger();
  const prices = createPriceSource({ chains: net.chainConfigs, clients, log });
  const accounts = net.devnet.accounts;
  return {
    net,
    clients,
    engine,
    clock,
    async startServer(store, options = {}) {
      const services = createIntentServices({
        store,
        chains: net.chainConfigs,
        clients,
        prices,
        engine,
        operator: {
          relayer: accounts.relayer!.address,
          solver: accounts.solver!.address,
          feeCollector: accounts.feeCollector!.address,
        },
        config: { serviceFeeBps: 25n, now: clock.now, waitHoldMs: options.waitHoldMs },
        log,
      });
      const server = await createApiServer({
        chains: net.chainConfigs,
        store,
        prices,
        services,
        log,
        rateLimit: false,
      });
      const url = await server.listen(0, '127.0.0.1');
      return {
        server,
        url,
        services,
        async close() {
          services.close();
          await server.close();
        },
      };
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
