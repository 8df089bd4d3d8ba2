/**
 * One Switchyard process built by the production assembly (`startSwitchyard`, the same code `switchyard
 * start` runs) for tests and benchmarks: the API on a loopback port, SQLite in a temporary data dir unless
 * given a store, and a project access key. Typical use:
 *
 *   const app = await startTestSwitchyard();     // in beforeAll: a devnet, and the process on it
 *   const api = new TrailsApi(app.key, { hostname: app.url });
 *   await app.stop();                            // in afterAll: the process, then the devnet and the dirs
 *
 * `startTestService` is the same process without a devnet (chains and operator keys given): suites that
 * share one devnet between servers, and bench/wait-server.ts. What tests set beyond production (a service
 * fee, a test clock, engine timings, a test double for the engine, no rate limits) goes through
 * startSwitchyard's own options, so every test server is assembled as production assembles it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { type StartSwitchyardOptions, startSwitchyard } from '../../src/app/start-switchyard.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import type { OperatorKeys } from '../../src/intents/operator-from-env.ts';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import type { Store } from '../../src/store/index.ts';
import type { TestDevnet, TestDevnetChain, TestDevnetOptions } from './devnet.ts';

/** Loopback only: tests talk to the API from this process. */
const TEST_HOST = '127.0.0.1';
/** Port 0: the OS picks a free port, so suites running side by side never collide. */
const TEST_PORT = 0;

/** Engine timings for a devnet that mines at once: production's poll intervals would only add idle time. */
export const FAST_ENGINE_OPTIONS = { stepPollIntervalMs: 20, depositScanIntervalMs: 100 } as const;

/** What a test may set beyond production: passed to startSwitchyard as they are. */
type AssemblyOptions = Pick<
  StartSwitchyardOptions,
  'store' | 'engine' | 'engineOptions' | 'intentServices' | 'rateLimit' | 'events'
>;

export interface TestServiceOptions extends AssemblyOptions {
  chains: ChainConfig[];
  /** The operator's keys: the real engine's, or with `engine` only the addresses the services quote with. */
  operator: OperatorKeys;
  /** The project the access key belongs to; default `devnet` (what `switchyard start` uses). */
  projectName?: string;
  /**
   * The access key's rate limit (requests per minute); default the store's own default, as a devnet key has.
   * Suites that poll (WaitIntentReceipt in a loop) set more so the limiter is not what they end up testing.
   */
  keyRateLimitPerMinute?: number;
}

export interface TestService {
  /** http://127.0.0.1:<port> */
  url: string;
  store: Store;
  /** The project's access key (header X-Access-Key) and its project. */
  key: string;
  projectId: number;
  /** The real engine, when the process built one (not when `engine` was given). */
  engine: IntentEngine | undefined;
  /** Stops the process (API, engine, the store unless it was given) and deletes the data dir. */
  stop(): Promise<void>;
}

export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-app-'));
  const shutdown = createShutdown();
  shutdown.add('data dir', () => rm(dataDir, { recursive: true, force: true }));
  try {
    const app = await startSwitchyard({
      // Webhook receivers in tests listen on loopback, as on the devnet.
      config: {
        host: TEST_HOST,
        port: TEST_PORT,
        dataDir,
        role: 'all',
        chains: options.chains,
        webhooks: { allowPrivateTargets: true },
      },
      operator: options.operator,
      log: createSilentLogger(),
      shutdown,
      store: options.store,
      engine: options.engine,
      engineOptions: options.engineOptions,
      intentServices: options.intentServices,
      rateLimit: options.rateLimit,
      events: options.events,
    });
    const { key, projectId } = await projectKey(app.store, options);
    return {
      url: app.url,
      store: app.store,
      key,
      projectId,
      engine: app.engine,
      stop: () => shutdown.shutdown(),
    };
  } catch (error) {
    await shutdown.shutdown();
    throw error;
  }
}

export type TestSwitchyardOptions = Omit<TestServiceOptions, 'chains' | 'operator'> & {
  devnet?: TestDevnetOptions;
};

export interface TestSwitchyard extends TestService {
  /** The devnet: parsed devnet.json, chain configs, and per-chain public/test/wallet clients. */
  net: TestDevnet;
  chain(chainId: number | bigint): TestDevnetChain;
}

/** A devnet, and a process on it with the devnet's operator keys. `stop` stops the devnet too. */
export async function startTestSwitchyard(options: TestSwitchyardOptions = {}): Promise<TestSwitchyard> {
  // Imported when called: bench/wait-server.ts bundles this file, and the devnet's modules would add to the
  // memory that benchmark measures.
  const { startTestDevnet } = await import('./devnet.ts');
  const { devnet, ...rest } = options;
  const net = await startTestDevnet(devnet);
  try {
    const app = await startTestService({
      ...rest,
      chains: net.chainConfigs,
      operator: devnetOperator(net.devnet),
    });
    return {
      ...app,
      net,
      chain: (chainId) => chainById(net, chainId),
      stop: async () => {
        await app.stop();
        await net.stop();
      },
    };
  } catch (error) {
    await net.stop();
    throw error;
  }
}

async function projectKey(
  store: Store,
  options: TestServiceOptions,
): Promise<{ key: string; projectId: number }> {
  const project = await store.projects.ensure(options.projectName ?? 'devnet');
  const { key } = await store.accessKeys.create({
    projectId: project.id,
    label: 'test',
    ...(options.keyRateLimitPerMinute !== undefined && { rateLimitPerMinute: options.keyRateLimitPerMinute }),
  });
  return { key, projectId: project.id };
}

function chainById(net: TestDevnet, chainId: number | bigint): TestDevnetChain {
  const found = net.chains.find((c) => c.entry.chainId === Number(chainId));
  if (!found) throw new Error(`no devnet chain ${chainId}`);
  return found;
}
