/**
 * Assembles one Switchyard process from a resolved config: the store, the chain clients, the price
 * source, the execution engine (its workers run unless the role is `api`), the deletion of expired quotes
 * nobody committed, the webhook dispatcher and the event log's retention (likewise), the intent services
 * and the HTTP API (with its event stream). `switchyard serve` and `switchyard start` (the devnet) both build their process here, and so
 * do the tests and benchmarks (test/harness/app.ts), through the optional settings below, which the CLI
 * never sets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicClient } from 'viem';
import type { EventStreamOptions } from '../api/events/event-stream-route.ts';
import { createRecoveryHandlers } from '../api/methods/recovery/index.ts';
import type { RateLimit } from '../api/rate-limiter.ts';
import { createApiServer } from '../api/server.ts';
import { createChainClients } from '../chains/create-chain-clients.ts';
import { createKeepAliveFetch } from '../chains/keep-alive-fetch.ts';
import { loadNativeSecp256k1 } from '../chains/signing-account.ts';
import { createIntentEngine, type IntentEngineOptions } from '../engine/index.ts';
import type { IntentEngine } from '../engine/types.ts';
import { createEventRetention, type EventRetentionOptions } from '../events/event-retention.ts';
import type { EventsObserver } from '../events/observer.ts';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import { createRecoveryServices } from '../intents/recovery/index.ts';
import {
  createIntentServices,
  type IntentServices,
  type IntentServicesConfig,
} from '../intents/services/index.ts';
import type { SwitchyardConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';
import { countStatusChanges } from '../metrics/count-status-changes.ts';
import { eventsObserverFor } from '../metrics/events-observer.ts';
import { meterRpcFetch } from '../metrics/meter-rpc-fetch.ts';
import { addStateGauges, serveMetrics } from '../metrics/serve-metrics.ts';
import { createPriceSource, type PriceSource } from '../pricing/index.ts';
import { createSolverInventory } from '../solver/create-solver-inventory.ts';
import { type ChainHealth, startChainHealthMonitor } from '../solver/start-chain-health-monitor.ts';
import { createStore, type Store } from '../store/index.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../webhooks/create-webhook-dispatcher.ts';
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
  engine?:
    | (Pick<IntentEngine, 'requestExecution'> &
        Partial<Pick<IntentEngine, 'retryExecution' | 'relayRecovery'>>)
    | undefined;
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
  /**
   * The read clients of the API process (quotes, the solver's inventory, chain health, prices) instead of
   * ones built from `config.chains`: bench/quote.ts records every request a quote makes through them.
   */
  readClients?: ReadonlyMap<number, PublicClient> | undefined;
  /** Wraps the intent services the API serves (bench/quote.ts times a quote inside the process). */
  wrapIntents?: ((built: IntentServices) => IntentServices) | undefined;
  /**
   * The access key the explorer page opens with (`switchyard start`: the devnet's, known once the store is
   * open); absent, the page asks for one.
   */
  explorerAccessKey?: (() => string | undefined) | undefined;
  /** How long a round of operator balance reads answers metrics scrapes (ms; tests: 0, every scrape reads). */
  metricsBalancesTtlMs?: number | undefined;
  /**
   * The event stream's, the webhook dispatcher's and the event retention's settings (tests shorten their
   * timings), and the observer the metrics count them with. Default production's.
   */
  events?: EventsAssemblyOptions | undefined;
}

export interface EventsAssemblyOptions {
  observer?: EventsObserver | undefined;
  stream?: Omit<EventStreamOptions, 'observer'> | undefined;
  webhooks?: WebhookDispatcherOptions | undefined;
  retention?: EventRetentionOptions | undefined;
}

export interface RunningSwitchyard {
  url: string;
  /** The Prometheus listener's `…/metrics` URL; absent when `config.metrics` is. */
  metricsUrl?: string | undefined;
  store: Store;
  prices: PriceSource;
  engine: IntentEngine | undefined;
  /** Low-water marks and fee caps (API processes with operator keys). */
  chainHealth: ChainHealth | undefined;
}

export async function startSwitchyard(options: StartSwitchyardOptions): Promise<RunningSwitchyard> {
  const { config, operator, log, shutdown } = options;
  const opened = options.store ?? (await openStore(config, log, shutdown));
  // Metrics are kept only when a listener serves them; otherwise nothing is counted at all.
  const served = config.metrics
    ? await serveMetrics({ listen: config.metrics, log: log.child({ component: 'metrics' }), shutdown })
    : undefined;
  const metrics = served?.prometheus.metrics;
  const eventsObserver = options.events?.observer ?? (metrics && eventsObserverFor(metrics));
  const store = metrics ? countStatusChanges(opened, metrics) : opened;
  const prices = createPriceSource({
    chains: config.chains,
    prices: config.prices,
    // Without given clients the price source makes its own, which give up fast (a quote waits for them).
    clients: options.readClients,
    log: log.child({ component: 'pricing' }),
  });
  // Keep-alive node:http instead of the global fetch (its per-call cost was the largest CPU item under load);
  // the limit on answer size moves into it (src/chains/keep-alive-fetch.ts).
  const rpcFetch = createKeepAliveFetch();
  shutdown.add('rpc connections', async () => rpcFetch.close());
  const fetchFn = metrics ? meterRpcFetch(rpcFetch.fetch, config.chains, metrics) : rpcFetch.fetch;
  const clients = options.readClients ?? createChainClients(config.chains, { fetchFn, batch: false });
  if (served) {
    addStateGauges(served.prometheus, {
      store,
      chains: config.chains,
      clients,
      operator,
      log: log.child({ component: 'metrics' }),
      balancesTtlMs: options.metricsBalancesTtlMs,
    });
  }
  const metricsUrl = served?.url;

  const engine =
    operator && !options.engine
      ? createIntentEngine({
          store,
          chains: config.chains,
          clients: createChainClients(config.chains, { fetchFn, batch: true }),
          keys: operator,
          log: log.child({ component: 'engine' }),
          metrics,
          options: {
            ...(config.stepLeaseMs !== undefined && { stepLeaseMs: config.stepLeaseMs }),
            ...options.engineOptions,
          },
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
    startEventWorkers(options, store, eventsObserver);
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
  const built =
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
  const intents = built && (options.wrapIntents?.(built) ?? built);

  // Recovery and RetryIntent: the owner's signed recoveries (sent by anyone, or by the relayer) and retries.
  // A test double of the engine without retries and relays leaves these methods Unavailable.
  const retryExecution = executor?.retryExecution;
  const relayRecovery = executor?.relayRecovery;
  const recovery =
    retryExecution && relayRecovery && operator
      ? createRecoveryHandlers(
          createRecoveryServices({
            store,
            chains: config.chains,
            clients,
            prices,
            engine: { retryExecution, relayRecovery },
            relayer: operator.relayer.address,
          }),
        )
      : undefined;

  if (config.role === 'worker') return { url: '', metricsUrl, store, prices, engine, chainHealth: undefined };
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
    intents,
    yield: createYieldService({ chains: config.chains, prices, log: log.child({ component: 'yield' }) }),
    services: recovery,
    log: log.child({ component: 'api' }),
    rateLimit: options.rateLimit,
    chainHealth,
    metrics,
    explorer: { clients, accessKey: options.explorerAccessKey },
    eventStream: { ...options.events?.stream, observer: eventsObserver },
  });
  const url = await api.listen(config.port, config.host);
  shutdown.add('api', async () => {
    // Held WaitIntentReceipt calls are released first so the server can close at once.
    intents?.close();
    await api.close();
  });
  log.info('API listening', { url, role: config.role, chains: config.chains.map((c) => c.chainId) });
  return { url, metricsUrl, store, prices, engine, chainHealth };
}

/** The worker side of events: webhook deliveries and the log's retention (every worker process runs both). */
function startEventWorkers(
  options: StartSwitchyardOptions,
  store: Store,
  observer: EventsObserver | undefined,
): void {
  const { config, log, shutdown } = options;
  const dispatcher = createWebhookDispatcher({
    store,
    log: log.child({ component: 'webhooks' }),
    allowPrivateTargets: config.webhooks?.allowPrivateTargets ?? false,
    observer,
    options: options.events?.webhooks,
  });
  dispatcher.start();
  shutdown.add('webhook dispatcher', () => dispatcher.stop());
  const retention = createEventRetention({
    store,
    log: log.child({ component: 'event-retention' }),
    options: { now: options.intentServices?.now, ...options.events?.retention },
  });
  retention.start();
  shutdown.add('event retention', () => retention.stop());
}

async function openStore(config: SwitchyardConfig, log: Logger, shutdown: Shutdown): Promise<Store> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const store = await createStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.databasePoolSize !== undefined && { poolSize: config.databasePoolSize }),
    webhookSecretsKey: config.webhookSecretsKey,
    webhookSecretsPreviousKey: config.webhookSecretsPreviousKey,
    sqlitePath: join(config.dataDir, 'switchyard.sqlite'),
    log: log.child({ component: 'store' }),
  });
  shutdown.add('store', () => store.close());
  return store;
}
