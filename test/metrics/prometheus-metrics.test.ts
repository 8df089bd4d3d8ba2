/**
 * The Prometheus implementation of the Metrics hooks on its own registry: every hook lands in its series
 * (histograms read back through prom-client's own registry, counters and gauges through the text parser),
 * the no-op default accepts every call, and two instances never share a count.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createPrometheusMetrics } from '../../src/metrics/create-prometheus-metrics.ts';
import { type Metrics, NOOP_METRICS } from '../../src/metrics/metrics.ts';
import { registerStateGauges } from '../../src/metrics/state-gauges.ts';

interface JsonSeries {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

async function series(registry: ReturnType<typeof createPrometheusMetrics>['registry'], name: string) {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values ?? []) as JsonSeries[];
}

function hookCalls(metrics: Metrics): void {
  metrics.httpRequest('QuoteIntent', 200, 0.004);
  metrics.httpRequest('QuoteIntent', 200, 0.02);
  metrics.httpRequest('QuoteIntent', 400, 0.001);
  metrics.stepRun('origin', 'done', 0.3);
  metrics.stepRun('origin', 'retry', 2);
  metrics.stepLeaseTakenOver('fill');
  metrics.rpcCall(7_770_001, true, 0.002);
  metrics.rpcCall(7_770_001, false, 1.5);
  metrics.intentStatusChanged('SUCCEEDED');
  metrics.webhookDelivery('delivered', 0.05);
  metrics.webhookDelivery('failed', 10);
  metrics.eventStreamOpened();
  metrics.eventStreamOpened();
  metrics.eventStreamClosed();
}

describe('createPrometheusMetrics', () => {
  it('puts every hook into its series', async () => {
    const { metrics, registry } = createPrometheusMetrics();
    hookCalls(metrics);
    const families = parsePrometheusTextFormat(await registry.metrics());
    const value = (name: string, labels: Record<string, string> = {}) =>
      families
        .find((f) => f.name === name)
        ?.metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels))?.value;
    expect(value('switchyard_http_requests_total', { method: 'QuoteIntent', status: '200' })).toBe('2');
    expect(value('switchyard_http_requests_total', { method: 'QuoteIntent', status: '400' })).toBe('1');
    expect(value('switchyard_step_runs_total', { step: 'origin', outcome: 'retry' })).toBe('1');
    expect(value('switchyard_step_lease_takeovers_total', { step: 'fill' })).toBe('1');
    expect(value('switchyard_rpc_requests_total', { chain_id: '7770001' })).toBe('2');
    expect(value('switchyard_rpc_errors_total', { chain_id: '7770001' })).toBe('1');
    expect(value('switchyard_intent_status_changes_total', { status: 'SUCCEEDED' })).toBe('1');
    expect(value('switchyard_webhook_deliveries_total')).toBe('2');
    expect(value('switchyard_webhook_delivery_failures_total')).toBe('1');
    expect(value('switchyard_event_streams_open')).toBe('1');

    // Histograms: each label set has its own buckets, count and sum.
    const http = await series(registry, 'switchyard_http_request_duration_seconds');
    const httpCount = http.find((s) => s.metricName?.endsWith('_count') && s.labels.method === 'QuoteIntent');
    expect(httpCount?.value).toBe(3);
    const le5ms = http.find((s) => s.metricName?.endsWith('_bucket') && s.labels.le === 0.005);
    expect(le5ms?.value).toBe(2);
    const steps = await series(registry, 'switchyard_step_duration_seconds');
    const originRetrySum = steps.find(
      (s) => s.metricName?.endsWith('_sum') && s.labels.step === 'origin' && s.labels.outcome === 'retry',
    );
    expect(originRetrySum?.value).toBe(2);
    const rpc = await series(registry, 'switchyard_rpc_request_duration_seconds');
    expect(rpc.find((s) => s.metricName?.endsWith('_count'))?.value).toBe(2);
    const webhooks = await series(registry, 'switchyard_webhook_delivery_duration_seconds');
    expect(webhooks.find((s) => s.metricName?.endsWith('_sum'))?.value).toBeCloseTo(10.05, 10);
  });

  it('keeps each instance’s counts apart, and the no-op default takes every call', async () => {
    const first = createPrometheusMetrics();
    const second = createPrometheusMetrics();
    hookCalls(first.metrics);
    hookCalls(NOOP_METRICS);
    expect(await series(second.registry, 'switchyard_http_requests_total')).toEqual([]);
    expect((await series(first.registry, 'switchyard_http_requests_total')).length).toBe(2);
  });

  it('reads state gauges at scrape time and leaves out a source that fails, counting the failure', async () => {
    const { registry } = createPrometheusMetrics();
    let steps = { due: 3, leased: 1 };
    registerStateGauges(
      registry,
      {
        intentsByStatus: async () => ({ SUCCEEDED: 5, EXECUTING: 2 }),
        steps: async () => steps,
        operatorBalances: async () => {
          throw new Error('chain down');
        },
      },
      createSilentLogger(),
    );
    const read = async () => parsePrometheusTextFormat(await registry.metrics());
    const family = async (name: string) => (await read()).find((f) => f.name === name)?.metrics ?? [];
    expect(await family('switchyard_intents')).toEqual([
      { labels: { status: 'SUCCEEDED' }, value: '5' },
      { labels: { status: 'EXECUTING' }, value: '2' },
    ]);
    expect(await family('switchyard_steps')).toEqual([
      { labels: { state: 'due' }, value: '3' },
      { labels: { state: 'leased' }, value: '1' },
    ]);
    steps = { due: 0, leased: 0 };
    expect(await family('switchyard_steps')).toEqual([
      { labels: { state: 'due' }, value: '0' },
      { labels: { state: 'leased' }, value: '0' },
    ]);
    expect(await family('switchyard_operator_balance_tokens')).toEqual([]);
    const [failures] = await family('switchyard_metrics_source_errors_total');
    expect(failures?.labels).toEqual({ source: 'operator_balance_tokens' });
    expect(Number(failures?.value)).toBeGreaterThanOrEqual(4);
  });
});
