/**
 * Puts the process's metrics on their listener: the state gauges (intents by status and steps from the
 * store, the operator's balances from the chains when this process has operator keys) join the counters,
 * and `GET /metrics` listens on `config.metrics`. Returns the listener's URL; the shutdown closes it.
 */
import type { PublicClient } from 'viem';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import type { ChainConfig, MetricsListenConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';
import type { Store } from '../store/index.ts';
import type { PrometheusMetrics } from './create-prometheus-metrics.ts';
import { createOperatorBalances } from './operator-balances.ts';
import { startMetricsServer } from './start-metrics-server.ts';
import { registerStateGauges } from './state-gauges.ts';

export async function serveMetrics(deps: {
  prometheus: PrometheusMetrics;
  listen: MetricsListenConfig;
  store: Store;
  chains: readonly ChainConfig[];
  clients: ReadonlyMap<number, PublicClient>;
  operator: OperatorKeys | undefined;
  log: Logger;
  shutdown: Shutdown;
  /** Operator balance reads answer scrapes this long (ms); default BALANCES_TTL_MS, 0 reads every time. */
  balancesTtlMs?: number | undefined;
}): Promise<string> {
  const { prometheus, store, operator, log } = deps;
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
    log,
  );
  const server = await startMetricsServer({ registry: prometheus.registry, listen: deps.listen, log });
  deps.shutdown.add('metrics listener', () => server.close());
  log.info('metrics listening', { url: server.url });
  return server.url;
}
