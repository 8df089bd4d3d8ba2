/**
 * Gauges read when Prometheus scrapes: intents by status and steps due or leased (from the database, so
 * every process reports the same totals), and the operator's balances (from the chains). A source that
 * fails (the database or a chain is down) leaves its series out of that scrape and counts the failure in
 * `switchyard_metrics_source_errors_total{source}`: the rest of the scrape still answers.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../internal/logger.ts';
import { METRIC_PREFIX } from './create-prometheus-metrics.ts';

/** One operator balance, in whole tokens (Prometheus values are floats: see docs/metrics.md). */
export interface OperatorBalance {
  role: string;
  chainId: number;
  token: string;
  tokens: number;
}

export interface StateSources {
  /** Every stored intent counted by status (all projects). */
  intentsByStatus?: () => Promise<Record<string, number>>;
  /** Steps due now (waiting for a worker) and steps leased to a worker now. */
  steps?: () => Promise<{ due: number; leased: number }>;
  operatorBalances?: () => Promise<OperatorBalance[]>;
}

export function registerStateGauges(registry: Registry, sources: StateSources, log: Logger): void {
  const sourceErrors = new Counter({
    name: `${METRIC_PREFIX}metrics_source_errors_total`,
    help: 'Scrapes in which a gauge’s source could not be read',
    labelNames: ['source'],
    registers: [registry],
  });
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    fill: (set: (labels: Record<L, string | number>, value: number) => void) => Promise<void>,
  ) =>
    new Gauge<L>({
      name: METRIC_PREFIX + name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        try {
          await fill((labels, value) => this.set(labels, value));
        } catch (error) {
          this.reset();
          sourceErrors.inc({ source: name });
          log.warn('a metrics source could not be read', { source: name, error });
        }
      },
    });

  const { intentsByStatus, steps, operatorBalances } = sources;
  if (intentsByStatus) {
    gauge('intents', 'Stored intents by status (every project)', ['status'], async (set) => {
      for (const [status, count] of Object.entries(await intentsByStatus())) set({ status }, count);
    });
  }
  if (steps) {
    gauge('steps', 'Engine steps due (waiting for a worker) and leased (running)', ['state'], async (set) => {
      const { due, leased } = await steps();
      set({ state: 'due' }, due);
      set({ state: 'leased' }, leased);
    });
  }
  if (operatorBalances) {
    gauge(
      'operator_balance_tokens',
      'Relayer and solver balances per chain and token, in whole tokens',
      ['role', 'chain_id', 'token'],
      async (set) => {
        for (const b of await operatorBalances())
          set({ role: b.role, chain_id: b.chainId, token: b.token }, b.tokens);
      },
    );
  }
}
