/**
 * A process's metrics: the registry and its listener (`GET /metrics` on `config.metrics`), started before
 * anything is counted, then the state gauges (intents by status and steps from the store, the operator's
 * balances from the chains when this process has operator keys) once the store and chain clients exist.
 */
import type { PublicClient } from 'viem';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import type { ChainConfig, MetricsListenConfig } from '../internal/config-types.ts';
import { PortInUseError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';
import type { Store } from '../store/index.ts';
import { createPrometheusMetrics, type PrometheusMetrics } from './create-prometheus-metrics.ts';
import { createOperatorBalances } from './operator-balances.ts';
import { startMetricsServer } from './start-metrics-server.ts';
import { registerStateGauges } from './state-gauges.ts';

export interface ServedMetrics {
  prometheus: PrometheusMetrics;
  /** http://host:port/metrics */
  url: string;
}

/**
 * Starts the listener. A port the operator chose that is taken stops start-up (PortInUseError); the default
 * port taken (a second process on the box) is a warning, and this process keeps no metrics.
 */
export async function serveMetrics(deps: {
  listen: MetricsListenConfig;
  log: Logger;
  shutdown: Shutdown;
}): Promise<ServedMetrics | undefined> {
  const { listen, log } = deps;
  const prometheus = createPrometheusMetrics();
  try {
    const server = await startMetricsServer({ registry: prometheus.registry, listen, log });
    deps.shutdown.add('metrics listener', () => server.close());
    log.info('metrics listening', { url: server.url });
    return { prometheus, url: server.url };
  } catch (error) {
    if (!(error instanceof PortInUseError) || !listen.skipIfTaken) throw error;
    log.warn(
      'the default metrics port is taken: this process keeps no metrics; set metrics.port to give it one',
      {
        host: listen.host,
        port: listen.port,
      },
    );
    return undefined;
  }
}

export function addStateGauges(
  prometheus: PrometheusMetrics,
  deps: {
    store: Store;
    chains: readonly ChainConfig[];
    clients: ReadonlyMap<number, PublicClient>;
    operator: OperatorKeys | undefined;
    log: Logger;
    /** Operator balance reads answer scrapes this long (ms); default BALANCES_TTL_MS, 0 reads every time. */
    balancesTtlMs?: number | undefined;
  },
): void {
  const { store, operator } = deps;
  registerStateGauges(
    prometheus.registry,
    {
      intentsByStatus: () => store.gauges.intentsByStatus(),
      steps: () => store.gauges.steps(),
      ...(operator && {
        operatorBalances: createOperatorBalances({
          chains: deps.chains,
          clients: deps.clients,
          operators: { relayer: operator.relayer.address, solver: operator.solver.address },
          ttlMs: deps.balancesTtlMs,
        }),
      }),
    },
    deps.log,
  );
}
