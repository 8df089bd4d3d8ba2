/**
 * A small keep-alive HTTP load generator, run as a separate process (so it does not share an event
 * loop with the server it measures). It receives one job over IPC, sends POST requests with
 * `connections` requests in flight, bodies drawn at random from the job's list, until the time or
 * the request cap runs out, and answers with the throughput and latency percentiles.
 * Loopback only: it refuses any other host.
 */
import http from 'node:http';
import { percentile } from './percentile.ts';

export interface LoadJob {
  url: string;
  path: string;
  bodies: string[];
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
  maxRequests: number;
  /** Send every latency back too (so several rounds can be pooled into one percentile). */
  keepLatencies?: boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  durationMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
  latenciesMs?: number[];
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

async function run(job: LoadJob): Promise<LoadResult> {
  const target = new URL(job.url);
  if (!LOOPBACK.has(target.hostname)) throw new Error(`load generator: ${target.hostname} is not loopback`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies = new Float64Array(job.maxRequests);
  let sent = 0;
  let done = 0;
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const deadline = started + job.durationMs;

  const one = (body: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: job.path,
          method: 'POST',
          headers: {
            ...job.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => {
            if (res.statusCode !== 200) errors++;
            latencies[done++] = performance.now() - t0;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        latencies[done++] = performance.now() - t0;
        resolve();
      });
      req.end(body);
    });

  const worker = async () => {
    while (performance.now() < deadline && sent < job.maxRequests) {
      sent++;
      await one(job.bodies[Math.floor(Math.random() * job.bodies.length)]!);
    }
  };
  await Promise.all(Array.from({ length: job.connections }, worker));
  const durationMs = performance.now() - started;
  agent.destroy();
  const sorted = latencies.slice(0, done).sort();
  return {
    requests: done,
    errors,
    durationMs,
    requestsPerSecond: (done / durationMs) * 1000,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    bytes,
    ...(job.keepLatencies && { latenciesMs: Array.from(sorted) }),
  };
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ ok: true, result }, () => process.exit(0)),
    (error: Error) => process.send!({ ok: false, error: error.message }, () => process.exit(1)),
  );
});
