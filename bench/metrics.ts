/**
 * What counting costs on the request path: `Metrics.httpRequest` (a counter and a histogram, what the API's
 * onResponse hook calls once per request), `stepRun` and `rpcCall`, against the no-op default, on the label
 * values a busy server sees (a dozen methods, a few statuses). Batches alternate between the Prometheus and
 * the no-op implementation, so a noisy neighbour touches both alike; prints the median µs per call.
 *
 *   npm run bench:metrics -- [--rounds 30] [--batch 20000]
 *
 * See docs/benchmarks.md ("What counting a request costs").
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPrometheusMetrics } from '../src/metrics/create-prometheus-metrics.ts';
import { type Metrics, NOOP_METRICS } from '../src/metrics/metrics.ts';
import { percentiles } from './support/percentiles.ts';

const WARMUP_ROUNDS = 3;
/** Label values as a server sees them: many methods, mostly 200. */
const METHODS = [
  'GetIntentReceipt',
  'GetIntentHistory',
  'QuoteIntent',
  'CommitIntent',
  'ExecuteIntent',
  'WaitIntentReceipt',
  'GetChains',
  'GetTokenPrices',
  'SearchIntents',
  'GetIntent',
  'Ping',
  'unmatched',
];
const STATUSES = [200, 200, 200, 200, 200, 200, 200, 400, 401, 404];
const STEPS = ['deposit', 'origin', 'fill', 'destination', 'settle'];
const CHAINS = [7_770_001, 7_770_002, 7_770_003];

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '30' }, batch: { type: 'string', default: '20000' } },
});
const rounds = Number(args.rounds);
const batch = Number(args.batch);

const calls: Record<string, (m: Metrics, i: number) => void> = {
  'httpRequest (counter + histogram)': (m, i) =>
    m.httpRequest(METHODS[i % METHODS.length]!, STATUSES[i % STATUSES.length]!, (i % 50) / 10_000),
  'stepRun (counter + histogram)': (m, i) => m.stepRun(STEPS[i % STEPS.length]!, 'done', (i % 50) / 100),
  'rpcCall (counter + histogram)': (m, i) => m.rpcCall(CHAINS[i % CHAINS.length]!, true, (i % 50) / 1_000),
};
const implementations: Record<string, Metrics> = {
  prometheus: createPrometheusMetrics().metrics,
  'no-op': NOOP_METRICS,
};

const samples = new Map<string, number[]>();
for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
  const entries = Object.entries(implementations);
  for (const [implementation, metrics] of round % 2 === 0 ? entries : entries.reverse()) {
    for (const [call, run] of Object.entries(calls)) {
      const started = performance.now();
      for (let i = 0; i < batch; i++) run(metrics, i);
      const perCallUs = ((performance.now() - started) * 1_000) / batch;
      if (round < WARMUP_ROUNDS) continue;
      const key = `${call} | ${implementation}`;
      samples.set(key, [...(samples.get(key) ?? []), perCallUs]);
    }
  }
}

console.log(`\nµs per call (median and p90 of ${rounds} batches of ${batch}):\n`);
console.log('| call | implementation | median µs | p90 µs |');
console.log('| --- | --- | --- | --- |');
for (const [key, values] of samples) {
  const p = percentiles(values);
  console.log(`| ${key} | ${p.p50.toFixed(3)} | ${p.p90.toFixed(3)} |`);
}
