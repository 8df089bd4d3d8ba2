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
 * share one devnet between servers, servers on a test's own store (with `throwawayOperator()` when no
 * engine sends), bench/wait-server.ts and bench/quote.ts. What tests set beyond production (a service fee,
 * a test clock, engine timings, a test double for the engine, no rate limits, read clients that record,
 * a wrapper that times the intent services) goes through startSwitchyard's own options, so every test
 * server is assembled as production assembles it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { type StartSwitchyardOptions, startSwitchyard } from '../../src/app/start-switchyard.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import type { OperatorKeys } from '../../src/intents/operator-from-env.ts';
import type { ChainConfig, SwitchyardConfig } from '../../src/internal/config-types.ts';
import { createSilentLogger, type Logger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import type { PriceSource } from '../../src/pricing/index.ts';
import type { ChainHealth } from '../../src/solver/start-chain-health-monitor.ts';
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
  | 'store'
  | 'engine'
  | 'engineOptions'
  | 'intentServices'
  | 'rateLimit'
  | 'chainHealthIntervalMs'
  | 'readClients'
  | 'wrapIntents'
  | 'metricsBalancesTtlMs'
  | 'events'
  | 'quoteRetention'
>;

export interface TestServiceOptions extends AssemblyOptions {
  chains: ChainConfig[];
  /**
   * The operator's keys: the real engine's, or with `engine` only the addresses the services quote with;
   * undefined as `serve` without keys (no engine; the intent methods answer Unavailable).
   */
  operator: OperatorKeys | undefined;
  /** Which part of the process runs (`serve --role`); default `all`. */
  role?: 'api' | 'all';
  /** The project the access key belongs to; default `devnet` (what `switchyard start` uses). */
  projectName?: string;
  /**
   * The access key's rate limit (requests per minute); default the store's own default, as a devnet key has.
   * Suites that poll (WaitIntentReceipt in a loop) set more so the limiter is not what they end up testing.
   */
  keyRateLimitPerMinute?: number;
  /** Where the process logs; default nowhere. */
  log?: Logger;
  /** Keep metrics and serve them on a free loopback port (`metricsUrl`), as `serve` does on 9464. */
  metrics?: boolean;
  /** The explorer page opens with this service's access key filled in, as on `switchyard start`'s devnet. */
  explorerWithKey?: boolean;
  /** WEBHOOK_SECRETS_KEY, as `serve` resolves it: webhook secrets stored encrypted. */
  webhookSecretsKey?: SwitchyardConfig['webhookSecretsKey'];
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
  /** The process's price source (what quotes and GetTokenPrices read). */
  prices: PriceSource;
  /** Low-water marks and fee caps: `check()` runs a round now instead of waiting for the timer. */
  chainHealth: ChainHealth | undefined;
  /** The Prometheus listener's `…/metrics` URL, with `metrics: true`. */
  metricsUrl: string | undefined;
  /** Stops the process (API, engine, the store unless it was given) and deletes the data dir. */
  stop(): Promise<void>;
}

export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-app-'));
  const shutdown = createShutdown();
  shutdown.add('data dir', () => rm(dataDir, { recursive: true, force: true }));
  // The key is made once the store is open, after the API listens; the explorer reads it per page.
  let explorerKey: string | undefined;
  try {
    const app = await startSwitchyard({
      config: {
        host: TEST_HOST,
        port: TEST_PORT,
        dataDir,
        role: options.role ?? 'all',
        chains: options.chains,
        ...(options.metrics && { metrics: { host: TEST_HOST, port: TEST_PORT } }),
        // Webhook receivers in tests listen on loopback, as on the devnet.
        webhooks: { allowPrivateTargets: true },
        ...(options.webhookSecretsKey && { webhookSecretsKey: options.webhookSecretsKey }),
      },
      operator: options.operator,
      log: options.log ?? createSilentLogger(),
      shutdown,
      store: options.store,
      engine: options.engine,
      engineOptions: options.engineOptions,
      intentServices: options.intentServices,
      rateLimit: options.rateLimit,
      chainHealthIntervalMs: options.chainHealthIntervalMs,
      readClients: options.readClients,
      wrapIntents: options.wrapIntents,
      metricsBalancesTtlMs: options.metricsBalancesTtlMs,
      ...(options.explorerWithKey && { explorerAccessKey: () => explorerKey }),
      events: options.events,
      quoteRetention: options.quoteRetention,
    });
    const { key, projectId } = await projectKey(app.store, options);
    explorerKey = key;
    return {
      url: app.url,
      store: app.store,
      key,
      projectId,
      engine: app.engine,
      prices: app.prices,
      chainHealth: app.chainHealth,
      metricsUrl: app.metricsUrl,
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
      explorerWithKey: true,
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

/**
 * Operator keys nobody holds, for a process whose engine is a test double (`engine`): the services only
 * quote its addresses, and nothing is ever sent with them.
 */
export function throwawayOperator(): OperatorKeys {
  const account = privateKeyToAccount(generatePrivateKey());
  return { relayer: account, solver: account, attester: account, feeCollector: account.address };
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
