/**
 * GET /events at scale: the real API server (in a child process, bench/events-server.ts, so its memory is its
 * own) holds `--streams` open event streams, most following one intent each (`?intentId=`, spread over
 * `--intents` intents, as wallets and explorer pages watch theirs) and `--firehose` following the whole
 * project; then the server changes every intent once (its deposit row to PENDING: one event each) at `--rate`
 * per second. Measured in the same run:
 *
 * - server RSS, heap and memory outside the heap with the streams open (after a full GC), and the peak RSS
 *   while the events go out, beside the idle figures;
 * - delivery latency: from just before the change to the event's arrival here, for the intent's own streams
 *   and for the firehose streams (p50/p99);
 * - that closing the clients frees the streams: the server's count of open streams (the events observer the
 *   metrics use) back to 0, and its RSS and live heap after (RSS keeps what V8 reserved; the heap shows what
 *   was let go).
 *
 *   npx tsx bench/events.ts [--db sqlite|postgres|both] [--streams 10000] [--intents 2000] [--firehose 10] [--rate 200] [--tsx]
 *
 * Mark (issue 20): 10,000 open streams within bench:wait's memory budget, server < 300 MB. See
 * docs/benchmarks.md, "Event streams at scale".
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { EventsCounts } from './events-server.ts';
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

/** bench:wait's memory budget, which the issue sets for 10,000 streams too. */
const MAX_SERVER_RSS_MB = 300;
/** Memory is sampled this often (ms) while events go out. */
const MEMORY_SAMPLE_MS = 250;
/** After the last stream opened, this long (ms) before the held figures. */
const SETTLE_MS = 1_000;
/** Connections opened before waiting for the server to count them: bounds the burst. */
const OPEN_BATCH = 500;
const MB = 1024 * 1024;

const now = () => performance.timeOrigin + performance.now();

interface Options {
  dbs: Db[];
  tsx: boolean;
  streams: number;
  intents: number;
  firehose: number;
  rate: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      streams: { type: 'string', default: '10000' },
      intents: { type: 'string', default: '2000' },
      firehose: { type: 'string', default: '10' },
      rate: { type: 'string', default: '200' },
      tsx: { type: 'boolean', default: false },
    },
  });
  return {
    dbs: parseDbOption(values.db),
    tsx: values.tsx ?? false,
    streams: Number(values.streams),
    intents: Number(values.intents),
    firehose: Number(values.firehose),
    rate: Number(values.rate),
  };
}

/** One client stream: when each event (by intent) arrived. */
interface ClientStream {
  request: http.ClientRequest;
  arrived: Map<string, number>;
  failed: boolean;
}

function openStream(agent: http.Agent, url: URL, key: string, query: string): ClientStream {
  const stream: ClientStream = { request: undefined as never, arrived: new Map(), failed: false };
  let buffer = '';
  stream.request = http.get(
    { host: url.hostname, port: url.port, path: `/events${query}`, agent, headers: { 'x-access-key': key } },
    (response) => {
      if (response.statusCode !== 200) stream.failed = true;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (data) {
            const event = JSON.parse(data.slice('data: '.length)) as { data: { intentId: string } };
            stream.arrived.set(event.data.intentId, now());
          }
          end = buffer.indexOf('\n\n');
        }
      });
      response.on('error', () => {});
    },
  );
  stream.request.on('error', () => {
    stream.failed = true;
  });
  return stream;
}

interface RunResult {
  db: Db;
  idleRssMb: number;
  heldRssMb: number;
  heldHeapMb: number;
  heldHeapTotalMb: number;
  heldExternalMb: number;
  peakRssMb: number;
  closedRssMb: number;
  closedHeapMb: number;
  ownP50: number;
  ownP99: number;
  firehoseP50: number;
  firehoseP99: number;
  missing: number;
  failed: number;
  openAfterClose: number;
  openMs: number;
}

async function runOnce(db: Db, options: Options, script: ServerScript, target: Target): Promise<RunResult> {
  const server = new ServerProcess<EventsCounts>(script);
  try {
    const ready = await server.ask({ type: 'start', target, intents: options.intents }, 'ready');
    const url = new URL(ready.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: options.streams + 1 });
    const idle = await server.ask({ type: 'stats', gc: true }, 'stats');

    const streams: { stream: ClientStream; intentId: string | undefined }[] = [];
    const openStarted = now();
    for (let i = 0; i < options.streams; i++) {
      const firehose = i < options.firehose;
      const intentId = firehose ? undefined : ready.intentIds[i % ready.intentIds.length]!;
      streams.push({
        stream: openStream(agent, url, ready.key, intentId ? `?intentId=${intentId}` : ''),
        intentId,
      });
      if (i % OPEN_BATCH === OPEN_BATCH - 1) await waitForOpen(server, (n) => n >= i + 1);
    }
    await waitForOpen(server, (n) => n >= options.streams);
    const openMs = now() - openStarted;
    await new Promise((r) => setTimeout(r, SETTLE_MS));

    const held = await server.ask({ type: 'stats', gc: true }, 'stats');
    let peakRss = held.rss;
    const sampler = setInterval(() => {
      void server
        .ask({ type: 'stats' }, 'stats')
        .then((s) => {
          peakRss = Math.max(peakRss, s.rss);
        })
        .catch(() => {});
    }, MEMORY_SAMPLE_MS);
    const { at } = await server.ask({ type: 'change', rate: options.rate }, 'changed');
    const complete = () =>
      streams.every(({ stream, intentId }) =>
        intentId ? stream.arrived.has(intentId) : stream.arrived.size >= ready.intentIds.length,
      );
    await withTimeout(
      (async () => {
        while (!complete()) await new Promise((r) => setTimeout(r, 50));
      })(),
      'the events reaching every stream',
    ).catch(() => {});
    clearInterval(sampler);

    const own: number[] = [];
    const firehose: number[] = [];
    let missing = 0;
    for (const { stream, intentId } of streams) {
      for (const id of intentId ? [intentId] : ready.intentIds) {
        const arrived = stream.arrived.get(id);
        if (arrived === undefined) missing++;
        else (intentId ? own : firehose).push(arrived - at[id]!);
      }
    }
    const failed = streams.filter((s) => s.stream.failed).length;
    for (const { stream } of streams) stream.request.destroy();
    agent.destroy();
    const closed = await waitForOpen(server, (n) => n === 0).catch(() => undefined);
    const after = await server.ask({ type: 'stats', gc: true }, 'stats');
    own.sort((a, b) => a - b);
    firehose.sort((a, b) => a - b);
    return {
      db,
      idleRssMb: idle.rss / MB,
      heldRssMb: held.rss / MB,
      heldHeapMb: held.heapUsed / MB,
      heldHeapTotalMb: held.heapTotal / MB,
      heldExternalMb: held.external / MB,
      peakRssMb: peakRss / MB,
      closedRssMb: after.rss / MB,
      closedHeapMb: after.heapUsed / MB,
      ownP50: percentile(own, 50),
      ownP99: percentile(own, 99),
      firehoseP50: percentile(firehose, 50),
      firehoseP99: percentile(firehose, 99),
      missing,
      failed,
      openAfterClose: closed ?? after.open,
      openMs,
    };
  } finally {
    await server.stop();
  }
}

/** Polls the server's open-stream count until `done` holds for it; answers the count. */
async function waitForOpen(
  server: ServerProcess<EventsCounts>,
  done: (open: number) => boolean,
): Promise<number> {
  const deadline = now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const { open } = await server.ask({ type: 'stats' }, 'stats');
    if (done(open)) return open;
    if (now() > deadline) throw new Error(`the server has ${open} open streams`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function report(options: Options, results: RunResult[]): boolean {
  const f = (n: number) => n.toFixed(1);
  let ok = true;
  process.stdout.write(
    `\nGET /events: ${options.streams} open streams (${options.firehose} following the project, the rest one intent each over ${options.intents} intents), ${options.rate} intents changed per second; server ${options.tsx ? 'through tsx' : 'compiled'}\n\n`,
  );
  process.stdout.write(
    '| store | idle RSS MB | held RSS MB | peak RSS MB | held heap used/total MB | held external MB | after close RSS / heap used MB | own stream p50/p99 ms | firehose p50/p99 ms | missing | failed |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of results) {
    process.stdout.write(
      `| ${r.db} | ${f(r.idleRssMb)} | ${f(r.heldRssMb)} | ${f(r.peakRssMb)} | ${f(r.heldHeapMb)} / ${f(r.heldHeapTotalMb)} | ${f(r.heldExternalMb)} | ${f(r.closedRssMb)} / ${f(r.closedHeapMb)} | ${f(r.ownP50)} / ${f(r.ownP99)} | ${f(r.firehoseP50)} / ${f(r.firehoseP99)} | ${r.missing} | ${r.failed} |\n`,
    );
    const pass =
      r.peakRssMb < MAX_SERVER_RSS_MB && r.missing === 0 && r.failed === 0 && r.openAfterClose === 0;
    ok &&= pass;
    process.stdout.write(
      `  ${r.db}: opening ${options.streams} streams took ${f(r.openMs)} ms; peak RSS ${f(r.peakRssMb)} MB (mark < ${MAX_SERVER_RSS_MB}); open after the clients closed: ${r.openAfterClose}: ${pass ? 'PASS' : 'MISS'}\n`,
    );
  }
  return ok;
}

async function main(): Promise<number> {
  const options = parseOptions();
  const script = await prepareServerScript('events-server', options.tsx);
  const results: RunResult[] = [];
  for (const db of options.dbs) {
    process.stdout.write(`${db}: ${options.intents} intents, ${options.streams} streams…\n`);
    results.push(await withTarget(db, 'events', (target) => runOnce(db, options, script, target)));
  }
  return report(options, results) ? 0 : 1;
}

process.exitCode = await main();
