/**
 * The Prometheus implementation of `Metrics` (prom-client), on a registry of its own: no global registry,
 * so two processes in one test (or two servers in one process) never share counters. The state gauges
 * read at scrape time are added to the same registry by state-gauges.ts. docs/metrics.md lists every series.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics } from './metrics.ts';

/**
 * HTTP latency buckets (seconds): a cached read answers in well under a millisecond, a quote in tens of
 * milliseconds, and a held WaitIntentReceipt in up to ~25 s; the buckets span all three.
 */
const HTTP_SECONDS_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];
/** Step run buckets (seconds): a step is a few chain reads (ms) up to a mined transaction (block times). */
const STEP_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** JSON-RPC exchange buckets (seconds): a local node answers in a millisecond, a hosted one in tens to hundreds. */
const RPC_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Webhook delivery buckets (seconds): a receiver should answer within its timeout of a few seconds. */
const WEBHOOK_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const METRIC_PREFIX = 'switchyard_';

export interface PrometheusMetrics {
  metrics: Metrics;
  registry: Registry;
}

export function createPrometheusMetrics(): PrometheusMetrics {
  const registry = new Registry();
  // Process CPU, memory, open handles and event-loop lag, under their usual names.
  collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name: METRIC_PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
    new Histogram<L>({ name: METRIC_PREFIX + name, help, labelNames, buckets, registers: [registry] });

  const httpRequests = counter('http_requests_total', 'HTTP requests answered, by method and status', [
    'method',
    'status',
  ]);
  const httpSeconds = histogram(
    'http_request_duration_seconds',
    'Time from a request’s arrival to its answer, by method',
    ['method'],
    HTTP_SECONDS_BUCKETS,
  );
  const statusChanges = counter('intent_status_changes_total', 'Intents moved to a status by this process', [
    'status',
  ]);
  const stepRuns = counter('step_runs_total', 'Engine step runs, by step and how each ended', [
    'step',
    'outcome',
  ]);
  const stepSeconds = histogram(
    'step_duration_seconds',
    'How long engine step runs took, by step and outcome',
    ['step', 'outcome'],
    STEP_SECONDS_BUCKETS,
  );
  const takeovers = counter(
    'step_lease_takeovers_total',
    'Steps leased after another worker’s lease on them expired',
    ['step'],
  );
  const rpcCalls = counter('rpc_requests_total', 'HTTP exchanges with a chain’s JSON-RPC endpoint', [
    'chain_id',
  ]);
  const rpcErrors = counter(
    'rpc_errors_total',
    'JSON-RPC exchanges that failed (no answer, timeout, HTTP error status)',
    ['chain_id'],
  );
  const rpcSeconds = histogram(
    'rpc_request_duration_seconds',
    'JSON-RPC exchange latency by chain',
    ['chain_id'],
    RPC_SECONDS_BUCKETS,
  );
  const webhookDeliveries = counter('webhook_deliveries_total', 'Webhook delivery attempts', []);
  const webhookFailures = counter(
    'webhook_delivery_failures_total',
    'Webhook delivery attempts that failed',
    [],
  );
  const webhookSeconds = histogram(
    'webhook_delivery_duration_seconds',
    'Webhook delivery attempt latency',
    [],
    WEBHOOK_SECONDS_BUCKETS,
  );
  const openStreams = new Gauge({
    name: `${METRIC_PREFIX}event_streams_open`,
    help: 'Event streams (GET /events) open now',
    registers: [registry],
  });
  // Label objects for chains are made once per chain id, not per call.
  const chainLabels = new Map<number, { chain_id: string }>();
  const chainLabel = (chainId: number) => {
    let labels = chainLabels.get(chainId);
    if (!labels) {
      labels = { chain_id: String(chainId) };
      chainLabels.set(chainId, labels);
    }
    return labels;
  };

  const metrics: Metrics = {
    httpRequest(method, statusCode, seconds) {
      httpRequests.inc({ method, status: statusCode });
      httpSeconds.observe({ method }, seconds);
    },
    intentStatusChanged(status) {
      statusChanges.inc({ status });
    },
    stepRun(step, outcome, seconds) {
      const labels = { step, outcome };
      stepRuns.inc(labels);
      stepSeconds.observe(labels, seconds);
    },
    stepLeaseTakenOver(step) {
      takeovers.inc({ step });
    },
    rpcCall(chainId, ok, seconds) {
      const labels = chainLabel(chainId);
      rpcCalls.inc(labels);
      if (!ok) rpcErrors.inc(labels);
      rpcSeconds.observe(labels, seconds);
    },
    webhookDelivery(outcome, seconds) {
      webhookDeliveries.inc();
      if (outcome === 'failed') webhookFailures.inc();
      webhookSeconds.observe(seconds);
    },
    eventStreamOpened() {
      openStreams.inc();
    },
    eventStreamClosed() {
      openStreams.dec();
    },
  };
  return { metrics, registry };
}
