/**
 * What the rest of Switchyard tells the metrics. Call sites hold a `Metrics` and never import prom-client:
 * the Prometheus implementation (create-prometheus-metrics.ts) is built once at start-up when the metrics
 * listener is configured, and everything else gets NOOP_METRICS, whose calls cost nothing.
 *
 * Every method is a counter bump or a histogram observation: cheap enough for the request path
 * (docs/metrics.md, "Cost"). Gauges that describe state (intents by status, steps due, operator balances)
 * are read when Prometheus scrapes, not pushed from here.
 */

/** How one run of an engine step ended (src/engine/step-runner.ts). */
export type StepOutcome = 'done' | 'wait' | 'retry' | 'failed';

/** How one webhook delivery attempt ended. */
export type WebhookOutcome = 'delivered' | 'failed';

export interface Metrics {
  /**
   * One HTTP request answered. `method` is the RPC method (`QuoteIntent`), or the route for other paths
   * (`GET /explorer`), or `unmatched`; `seconds` from the request's arrival to its answer.
   */
  httpRequest(method: string, statusCode: number, seconds: number): void;
  /** An intent moved to `status` in this process (a stored, forward move). */
  intentStatusChanged(status: string): void;
  /** One run of an engine step: its name, how it ended, and how long `run` took. */
  stepRun(step: string, outcome: StepOutcome, seconds: number): void;
  /** A step was leased while another worker's lease on it had expired (that worker stopped or stalled). */
  stepLeaseTakenOver(step: string): void;
  /** One HTTP exchange with a chain's JSON-RPC endpoint; `ok` false when it failed or answered an HTTP error. */
  rpcCall(chainId: number, ok: boolean, seconds: number): void;
  /** One webhook delivery attempt and its latency (the receiver's answer, or the failure). */
  webhookDelivery(outcome: WebhookOutcome, seconds: number): void;
  /** An event stream (GET /events) was opened; pair each with one `eventStreamClosed`. */
  eventStreamOpened(): void;
  eventStreamClosed(): void;
}

function ignore(): void {}

/** Metrics off: every call returns at once. A constant without state, so sharing it is safe. */
export const NOOP_METRICS: Metrics = Object.freeze({
  httpRequest: ignore,
  intentStatusChanged: ignore,
  stepRun: ignore,
  stepLeaseTakenOver: ignore,
  rpcCall: ignore,
  webhookDelivery: ignore,
  eventStreamOpened: ignore,
  eventStreamClosed: ignore,
});
