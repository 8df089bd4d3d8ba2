/**
 * Assembles one Switchyard process from a resolved config: the store, the chain clients, the price
 * source, the execution engine (its workers run unless the role is `api`), the deletion of expired quotes
 * nobody committed (likewise), the intent services and the HTTP API. `switchyard serve` and `switchyard start` (the devnet) both build their process here, and so
 * do the tests and benchmarks (test/harness/app.ts), through the optional settings below, which the CLI
 * never sets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RateLimit } from '../api/rate-limiter.ts';
import { createApiServer } from '../api/server.ts';
import { createChainClients } from '../chains/create-chain-clients.ts';
import { createKeepAliveFetch } from '../chains/keep-alive-fetch.ts';
import { loadNativeSecp256k1 } from '../chains/signing-account.ts';
import { createIntentEngine, type IntentEngineOptions } from '../engine/index.ts';
import type { IntentEngine } from '../engine/types.ts';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import { createIntentServices, type IntentServicesConfig } from '../intents/services/index.ts';
import type { SwitchyardConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';
import { createPriceSource, type PriceSource } from '../pricing/index.ts';
import { createSolverInventory } from '../solver/create-solver-inventory.ts';
import { type ChainHealth, startChainHealthMonitor } from '../solver/start-chain-health-monitor.ts';
import { createStore, type Store } from '../store/index.ts';
import { createYieldService } from '../yield/index.ts';
import { createQuoteRetention, type QuoteRetentionOptions } from './quote-retention.ts';

export interface StartSwitchyardOptions {
  config: SwitchyardConfig & { prices?: Record<string, number> | undefined };
  /** Without operator keys the intent methods answer Unavailable and no engine runs. */
  operator: OperatorKeys | undefined;
  log: Logger;
  /** Teardowns are registered here, in start order. */
  shutdown: Shutdown;
  /**
   * An open store to serve from instead of opening one from `config` (a test's store shared by several
   * servers, a benchmark's store filled beforehand). The caller keeps it: `shutdown` does not close it.
   */
  store?: Store | undefined;
  /**
   * The engine the intent services hand executions to, instead of the real one built from `operator`
   * (a test double, or a wrapper over engines the caller replaces). The caller owns it: it is neither
   * started nor stopped here, and `operator` then only gives the services its addresses.
   */
  engine?: Pick<IntentEngine, 'requestExecution'> | undefined;
  /** The real engine's timings (tests on a devnet that mines at once poll faster); default production's. */
  engineOptions?: IntentEngineOptions | undefined;
  /** The intent services' settings (service fee, clock, WaitIntentReceipt hold); default production's. */
  intentServices?: IntentServicesConfig | undefined;
  /** Per-key rate limits of the API; `false` turns them off (benchmarks, tests); default each key's own. */
  rateLimit?: RateLimit | false | undefined;
  /**
   * The deletion of quotes nobody committed (worker processes only): its interval, retention and batch;
   * its clock defaults to the intent services' `now`. Default production's (src/app/quote-retention.ts).
   */
  quoteRetention?: QuoteRetentionOptions | undefined;
  /** How often low-water marks and fee caps are checked (ms); default CHAIN_HEALTH_CHECK_MS. */
  chainHealthIntervalMs?: number | undefined;
}

export interface RunningSwitchyard {
  url: string;
  store: Store;
  prices: PriceSource;
  engine: IntentEngine | undefined;
  /** Low-water marks and fee caps (API processes with operator keys). */
  chainHealth: ChainHealth | undefined;
}

export async function startSwitchyard(options: StartSwitchyardOptions): Promise<RunningSwitchyard> {
  const { config, operator, log, shutdown } = options;
  const store = options.store ?? (await openStore(config, log, shutdown));
  const prices = createPriceSource({
    chains: config.chains,
    prices: config.prices,
    log: log.child({ component: 'pricing' }),
  });
  // Keep-alive node:http instead of the global fetch (its per-call cost was the largest CPU item under load);
  // the limit on answer size moves into it (src/chains/keep-alive-fetch.ts).
  const rpcFetch = createKeepAliveFetch();
  shutdown.add('rpc connections', async () => rpcFetch.close());
  const clients = createChainClients(config.chains, {
    fetchFn: rpcFetch.fetch,
    batch: false,
  });

  const engine =
    operator && !options.engine
      ? createIntentEngine({
          store,
          chains: config.chains,
          clients: createChainClients(config.chains, {
            fetchFn: rpcFetch.fetch,
            batch: true,
          }),
          keys: operator,
          log: log.child({ component: 'engine' }),
          ...(options.engineOptions && { options: options.engineOptions }),
        })
      : undefined;
  if (!operator) {
    log.warn('no operator keys: QuoteIntent and the other intent methods are unavailable');
  } else if (!loadNativeSecp256k1()) {
    log.warn(
      'native secp256k1 did not load: the operator signs with viem’s JS curve (same signatures, more CPU)',
    );
  }
  if (engine && config.role !== 'api') {
    await engine.start();
    shutdown.add('engine', () => engine.stop());
  }
  if (config.role !== 'api') {
    const retention = createQuoteRetention({
      store,
      log: log.child({ component: 'quote-retention' }),
      options: { now: options.intentServices?.now, ...options.quoteRetention },
    });
    retention.start();
    shutdown.add('quote retention', () => retention.stop());
  }
  const executor = options.engine ?? engine;
  const inventory =
    operator &&
    createSolverInventory({
      store,
      chains: config.chains,
      getClient: (chainId) => clients.get(chainId)!,
      solver: operator.solver.address,
    });
  const services =
    executor && operator
      ? createIntentServices({
          store,
          chains: config.chains,
          clients,
          prices,
          engine: executor,
          operator: {
            relayer: operator.relayer.address,
            solver: operator.solver.address,
            feeCollector: operator.feeCollector,
          },
          config: options.intentServices,
          log: log.child({ component: 'intents' }),
          inventory,
        })
      : undefined;

  if (config.role === 'worker') return { url: '', store, prices, engine, chainHealth: undefined };
  const chainHealth =
    inventory &&
    startChainHealthMonitor({
      chains: config.chains,
      inventory,
      getClient: (chainId) => clients.get(chainId)!,
      log: log.child({ component: 'chain-health' }),
      intervalMs: options.chainHealthIntervalMs,
    });
  if (chainHealth) shutdown.add('chain health', async () => chainHealth.stop());
  const api = await createApiServer({
    config,
    chains: config.chains,
    store,
    prices,
    services: {
      ...services,
      ...createYieldService({ chains: config.chains, prices, log: log.child({ component: 'yield' }) })
        .handlers,
    },
    log: log.child({ component: 'api' }),
    rateLimit: options.rateLimit,
    chainHealth,
  });
  const url = await api.listen(config.port, config.host);
  shutdown.add('api', async () => {
    // Held WaitIntentReceipt calls are released first so the server can close at once.
    services?.close();
    await api.close();
  });
  log.info('API listening', { url, role: config.role, chains: config.chains.map((c) => c.chainId) });
  return { url, store, prices, engine, chainHealth };
}

async function openStore(config: SwitchyardConfig, log: Logger, shutdown: Shutdown): Promise<Store> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const store = await createStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.databasePoolSize !== undefined && { poolSize: config.databasePoolSize }),
    sqlitePath: join(config.dataDir, 'switchyard.sqlite'),
    log: log.child({ component: 'store' }),
  });
  shutdown.add('store', () => store.close());
  return store;
}
