/**
 * bench:e2e --workers: the floor beside the workers' figure. The workers' CPU per intent grows with their
 * number on this machine; the floor measures how much of that growth any code pays for being split over N
 * processes here. The same fixed total of worker-like work (floor-unit.ts: JSON-RPC reads of the devnet's
 * chains, small statements through postgres.js on the run's database, a signature and a hash per unit,
 * each step a wake-up on I/O) with the same total in flight as the run's intents, split over N plain Node
 * processes (floor-process.ts) with no Switchyard engine in them, for each worker count of the run. Each
 * count runs twice, in the order the workers' halves run (1, 2, 4, 4, 2, 1), and the two passes are pooled.
 * The CPU is read from /proc as for the workers (process-cpu.ts): the floor's processes, the Postgres
 * backends of their connections only (by application_name), and the chains.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { compileScript } from '../../bin/compile-sources.js';
import type { RunningDevnet } from '../../src/devnet/start-devnet.ts';
import { POOL_MAX_CONNECTIONS } from '../../src/store/open-postgres.ts';
import { FLOOR_APPLICATION_NAME } from './floor-messages.ts';
import { type FloorPass, runFloorPass } from './floor-pass.ts';
import { FLOOR_TABLE } from './floor-unit.ts';
import type { PostgresActivity } from './postgres-activity.ts';
import { sumSpent } from './process-cpu.ts';

/**
 * Units per pass, over all processes. A unit (7 statements and JSON-RPC calls) costs its processes 1.3–2.9 ms
 * of CPU and the whole machine (with Postgres and anvil) 2–4 ms: the same order per call as a worker's
 * (~30 ms per intent for ~70 statements and calls at one worker). 2,000 of them run 3–14 s a pass on this
 * machine at any count: long enough that /proc's 10 ms ticks and a neighbour's burst are small against it.
 */
export const FLOOR_UNITS_PER_PASS = 2_000;
/**
 * Units each process runs before a pass is measured: its pool's connections opened, its statements
 * prepared, its code compiled by V8 (as a worker's are by the time an intent reaches it).
 */
const WARMUP_UNITS_PER_PROCESS = 100;

const CHILD_SOURCE = fileURLToPath(new URL('./floor-process.ts', import.meta.url));
const CHILD_COMPILED = fileURLToPath(new URL('../../build/bench/floor-process.mjs', import.meta.url));

export interface FloorOptions {
  databaseUrl: string;
  devnet: RunningDevnet;
  /** The run's worker counts: one floor count each. */
  counts: readonly number[];
  /** The run's intents in flight: the floor's units in flight, over all its processes. */
  inFlight: number;
  /** Connections per process (the run's --pool, else the service's default). */
  poolSize: number | undefined;
  activity: PostgresActivity;
  units?: number;
}

export interface FloorResult {
  inFlight: number;
  unitsPerPass: number;
  /** One per count, its two passes pooled. */
  counts: FloorPass[];
  /** The 1-minute load average before the first pass and after the last. */
  load: [number, number];
}

export async function runFloor(options: FloorOptions): Promise<FloorResult> {
  const { devnet, counts } = options;
  const units = options.units ?? FLOOR_UNITS_PER_PASS;
  // Compiled as the service's processes run (no tsx loader in the children).
  await compileScript(CHILD_SOURCE, CHILD_COMPILED);
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists ${sql(FLOOR_TABLE)} (
      id bigserial primary key, process integer not null, unit integer not null, nonce bigint not null,
      head bigint not null, hash text, signed text, done boolean not null default false)`;
  } finally {
    await sql.end();
  }
  const [origin, destination] = devnet.chainConfigs;
  const load0 = loadavg()[0]!;
  const passes = new Map<number, FloorPass[]>(counts.map((n) => [n, []]));
  for (const n of [...counts, ...[...counts].reverse()]) {
    const pass = await runFloorPass({
      script: CHILD_COMPILED,
      processes: n,
      units,
      inFlight: options.inFlight,
      warmupUnits: WARMUP_UNITS_PER_PROCESS,
      target: {
        databaseUrl: options.databaseUrl,
        poolSize: options.poolSize ?? POOL_MAX_CONNECTIONS,
        originRpcUrl: origin!.rpcUrls[0]!,
        destinationRpcUrl: destination!.rpcUrls[0]!,
        originChainId: origin!.chainId,
        rpcBatchSize: origin!.rpcBatchSize ?? 1,
      },
      backendPids: () => options.activity.backendPids(FLOOR_APPLICATION_NAME),
      chainPids: () => devnet.chains.map((c) => c.anvil.process.pid ?? 0),
    });
    process.stderr.write(
      `[e2e] floor, ${n} process(es): ${pass.units} units in ${(pass.spanMs / 1000).toFixed(1)} s, ${((pass.spent.floor ?? 0) / pass.units).toFixed(2)} ms CPU per unit in its processes\n`,
    );
    passes.get(n)!.push(pass);
  }
  return {
    inFlight: options.inFlight,
    unitsPerPass: units,
    counts: counts.map((n) => poolPasses(passes.get(n)!)),
    load: [load0, loadavg()[0]!],
  };
}

function poolPasses(passes: FloorPass[]): FloorPass {
  return {
    processes: passes[0]!.processes,
    units: passes.reduce((sum, p) => sum + p.units, 0),
    spanMs: passes.reduce((sum, p) => sum + p.spanMs, 0),
    spent: sumSpent(passes.map((p) => p.spent)),
  };
}

/** The floor's processes' CPU ms per unit. */
const perUnit = (p: FloorPass, group = 'floor') => (p.spent[group] ?? 0) / p.units;

/** The floor's growth, largest count against smallest: what any code split over more processes pays here. */
export function floorGrowth(result: FloorResult): number {
  return perUnit(result.counts[result.counts.length - 1]!) / perUnit(result.counts[0]!);
}

/**
 * The floor's table and its line beside the workers' growth (`workersGrowth`: their CPU per intent at the
 * largest count ÷ the smallest, undefined with --floor-only).
 */
export function printFloor(result: FloorResult, workersGrowth: number | undefined): void {
  const ms = (v: number) => v.toFixed(2);
  const order = result.counts.map((c) => c.processes);
  const lines = [
    '',
    `Floor: the same worker-like work split over N plain Node processes, no engine (bench/support/floor-unit.ts: per unit 3 JSON-RPC calls, 4 statements, 1 signature and hash); ${result.unitsPerPass} units per pass, ${result.inFlight} in flight over all processes; passes ${[...order, ...[...order].reverse()].join(', ')}, two per count pooled; load ${result.load[0].toFixed(1)} → ${result.load[1].toFixed(1)}`,
    '',
    '| processes | units | units/s | CPU ms per unit: processes | per process | postgres | chains | total |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const p of result.counts) {
    const total = perUnit(p) + perUnit(p, 'postgres') + perUnit(p, 'chains');
    lines.push(
      `| ${p.processes} | ${p.units} | ${(p.units / (p.spanMs / 1000)).toFixed(0)} | ${ms(perUnit(p))} | ${ms(perUnit(p) / p.processes)} | ${ms(perUnit(p, 'postgres'))} | ${ms(perUnit(p, 'chains'))} | ${ms(total)} |`,
    );
  }
  const first = result.counts[0]!;
  const last = result.counts[result.counts.length - 1]!;
  const growth = floorGrowth(result);
  const workers =
    workersGrowth === undefined
      ? 'workers: not run (--floor-only)'
      : `workers: ${workersGrowth.toFixed(2)}×${
          workersGrowth > 1
            ? ` (the floor's growth is ${Math.round((100 * Math.max(0, growth - 1)) / (workersGrowth - 1))} % of the workers')`
            : ''
        }`;
  lines.push(
    '',
    `floor: the same work in N processes costs ${growth.toFixed(2)}× the CPU per unit at ${last.processes} as at ${first.processes}; ${workers}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
