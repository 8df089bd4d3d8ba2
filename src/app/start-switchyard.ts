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
import type { EventStreamOptions } from '../api/events/event-stream-route.ts';
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
import { createIntentServices, type IntentServicesConfig } from '../intents/services/index.ts';
import type { SwitchyardConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';
import { createPriceSource, type PriceSource } from '../pricing/index.ts';
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
  store: Store;
  prices: PriceSource;
  engine: IntentEngine | undefined;
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
    startEventWorkers(options, store);
  }
  const executor = options.engine ?? engine;
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
        })
      : undefined;

  if (config.role === 'worker') return { url: '', store, prices, engine };
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
    eventStream: { ...options.events?.stream, observer: options.events?.observer },
  });
  const url = await api.listen(config.port, config.host);
  shutdown.add('api', async () => {
    // Held WaitIntentReceipt calls are released first so the server can close at once.
    services?.close();
    await api.close();
  });
  log.info('API listening', { url, role: config.role, chains: config.chains.map((c) => c.chainId) });
  return { url, store, prices, engine };
}

/** The worker side of events: webhook deliveries and the log's retention (every worker process runs both). */
function startEventWorkers(options: StartSwitchyardOptions, store: Store): void {
  const { config, log, shutdown } = options;
  const dispatcher = createWebhookDispatcher({
    store,
    log: log.child({ component: 'webhooks' }),
    allowPrivateTargets: config.webhooks?.allowPrivateTargets ?? false,
    observer: options.events?.observer,
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
    sqlitePath: join(config.dataDir, 'switchyard.sqlite'),
    log: log.child({ component: 'store' }),
  });
  shutdown.add('store', () => store.close());
  return store;
}
