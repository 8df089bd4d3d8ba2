/**
 * bench:e2e --workers N[,N…]: the service as separate processes on one Postgres database (one
 * `serve --role api`, N `serve --role worker`, service-processes.ts) against the same devnet, each worker
 * count measured in the same run beside the bare chain time. The runs go bare, then each count in turn,
 * then the counts backwards, then bare again (1, 2, 4, 4, 2, 1 with the bare halves around them), so no
 * count always runs on a longer chain than another. Each service half is followed by a quiet pause
 * (untimed) in which its settlements finish, so the next half does not pay for them; workers are started
 * and stopped in that pause, outside the timed part.
 */
import { TrailsApi } from '@0xtrails/api';
import type { Account } from 'viem';
import { toLocalAccount } from '../../src/devnet/accounts.ts';
import type { RunningDevnet } from '../../src/devnet/start-devnet.ts';
import { loadPlan } from '../../src/engine/load-plan.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { Shutdown } from '../../src/internal/shutdown.ts';
import { createStore } from '../../src/store/index.ts';
import { createCpuMeter } from './cpu-meter.ts';
import { benchChain } from './e2e-chain.ts';
import {
  type Bench,
  type Measured,
  measure,
  note,
  pool,
  type Run,
  runBare,
  runService,
  SETTLE_QUIET_MS,
} from './e2e-runs.ts';
import {
  type ActivitySample,
  formatActivity,
  nonceLocks,
  openPostgresActivity,
  type PostgresActivity,
} from './postgres-activity.ts';
import { createGroupCpuMeter, type GroupSpent, sumSpent } from './process-cpu.ts';
import { formatCounts, type RpcCounter, startRpcCounters } from './rpc-counter.ts';
import { type ServiceProcesses, startServiceProcesses } from './service-processes.ts';

/** Connections of the benchmark's own store (access key, plans for the bare run): it runs no load. */
const BENCH_STORE_POOL = 2;
/**
 * The watched figure: the workers' CPU per intent at the largest count may exceed the smallest count's by
 * this factor before it counts as growing (runs of one build differ by ±10–30 % per cell on this machine).
 */
const MAX_WORKER_CPU_GROWTH = 1.15;
/**
 * How long (ms) the processes are watched with no intent in flight before each service half: what they
 * cost doing nothing (polls, watches, leases), which every intent pays a share of at low throughput.
 */
const IDLE_WATCH_MS = 5_000;
/**
 * A worker just started first reconciles the journal, re-broadcasts, and looks at every chain, and the steps
 * a stopped worker handed back are taken over by the others (ms): the idle watch starts this long after the
 * workers changed, so it sees their steady cost.
 */
const AFTER_CHANGE_MS = 3_000;
/** Lines of the Postgres activity printed per worker count (--pg-activity). */
const ACTIVITY_LINES = 12;

export interface WorkersBench {
  bench: Bench;
  processes: ServiceProcesses;
  activity: PostgresActivity;
  /** One per chain with --count-rpc, else none. */
  rpcCounters: RpcCounter[];
}

export interface WorkersBenchOptions {
  devnet: RunningDevnet;
  databaseUrl: string;
  workDir: string;
  shutdown: Shutdown;
  project: string;
  keyRatePerMinute: number;
  poolSize: number | undefined;
  /** Point the service processes at counting JSON-RPC proxies (--count-rpc): calls per intent per count. */
  countRpc?: boolean;
}

export async function startWorkersBench(options: WorkersBenchOptions): Promise<WorkersBench> {
  const { devnet, shutdown } = options;
  const store = await createStore({
    databaseUrl: options.databaseUrl,
    poolSize: BENCH_STORE_POOL,
    log: createSilentLogger(),
  });
  shutdown.add('bench store', () => store.close());
  const project = await store.projects.ensure(options.project);
  const { key } = await store.accessKeys.create({
    projectId: project.id,
    label: 'bench',
    rateLimitPerMinute: options.keyRatePerMinute,
  });
  const accounts = devnet.devnet.accounts;
  const rpcCounters = options.countRpc ? await startRpcCounters(devnet.chainConfigs, shutdown) : [];
  const processes = await startServiceProcesses({
    workDir: options.workDir,
    databaseUrl: options.databaseUrl,
    chains: devnet.chainConfigs.map((c, i) => (rpcCounters[i] ? { ...c, rpcUrls: [rpcCounters[i].url] } : c)),
    operatorEnv: {
      SWITCHYARD_RELAYER_KEY: accounts.relayer!.privateKey,
      SWITCHYARD_SOLVER_KEY: accounts.solver!.privateKey,
      SWITCHYARD_ATTESTER_KEY: accounts.attester!.privateKey,
      SWITCHYARD_FEE_COLLECTOR: accounts.feeCollector!.address,
    },
    poolSize: options.poolSize,
  });
  shutdown.add('serve processes', () => processes.stop());
  const activity = await openPostgresActivity(options.databaseUrl);
  shutdown.add('postgres activity', () => activity.close());
  const chainPids = () => devnet.chains.map((c) => c.anvil.process.pid ?? 0);
  const [alphaEntry, betaEntry] = devnet.devnet.chains;
  const bench: Bench = {
    api: new TrailsApi(key, { hostname: processes.apiUrl }),
    origin: benchChain(alphaEntry!),
    destination: benchChain(betaEntry!),
    operator: { relayer: toLocalAccount(accounts.relayer!), solver: toLocalAccount(accounts.solver!) },
    // The bare run stops every worker; each service run starts the workers it measures.
    engine: { stop: () => processes.setWorkers(0), start: async () => {} },
    async planOf(intentId) {
      const record = await store.intents.getForEngine(intentId);
      if (!record) throw new Error(`intent ${intentId} is not stored`);
      return loadPlan(record);
    },
    // Read per worker count by runWorkers, never reset by the shared runs (they reset only when counting one process).
    rpcCounters: [],
    cpu: createCpuMeter(chainPids),
    groupCpu: createGroupCpuMeter(async () => ({
      api: [processes.api.pid],
      workers: processes.workers().map((w) => w.pid),
      chains: chainPids(),
      postgres: await activity.backendPids(),
    })),
  };
  return { bench, processes, activity, rpcCounters };
}

export interface WorkersResult {
  concurrency: number;
  bare: Measured;
  services: {
    workers: number;
    measured: Measured;
    activity?: ActivitySample;
    idle: GroupSpent;
    /** Operator transactions journaled during the halves and their quiet pauses, by purpose. */
    sent: Map<string, number>;
    /** JSON-RPC calls of all service processes during the halves and their quiet pauses, by method (--count-rpc). */
    rpc: Map<string, number>;
  }[];
}

export interface WorkersRunOptions {
  counts: readonly number[];
  intents: number;
  concurrency: number;
  /** Sample pg_stat_activity during each service half (postgres-activity.ts). */
  sampleActivity: boolean;
}

export async function runWorkers(
  wb: WorkersBench,
  users: Account[],
  options: WorkersRunOptions,
): Promise<WorkersResult> {
  const { bench, processes } = wb;
  const { counts, concurrency } = options;
  const halves = [Math.ceil(options.intents / 2), Math.floor(options.intents / 2)] as const;
  const service = new Map<
    number,
    {
      runs: Run[];
      activity: ActivitySample[];
      idle: GroupSpent[];
      sent: Map<string, number>;
      rpc: Map<string, number>;
    }
  >(counts.map((n) => [n, { runs: [], activity: [], idle: [], sent: new Map(), rpc: new Map() }]));
  const rpcCalls = () => {
    const sum = new Map<string, number>();
    for (const counter of wb.rpcCounters)
      for (const [method, n] of counter.counts()) sum.set(method, (sum.get(method) ?? 0) + n);
    return sum;
  };
  const runCount = async (workers: number, half: number) => {
    const t0 = performance.now();
    const changing = workers !== processes.workers().length;
    await processes.setWorkers(workers);
    note(`${workers} worker(s) running (${((performance.now() - t0) / 1000).toFixed(1)} s to start)`);
    if (changing) await new Promise((resolve) => setTimeout(resolve, AFTER_CHANGE_MS));
    const idleFrom = await bench.groupCpu!.snapshot();
    await new Promise((resolve) => setTimeout(resolve, IDLE_WATCH_MS));
    service.get(workers)!.idle.push(await bench.groupCpu!.since(idleFrom));
    const sentBefore = await wb.activity.transactionsByPurpose();
    const rpcBefore = rpcCalls();
    const stopSampling = options.sampleActivity ? wb.activity.sample() : undefined;
    const run = await runService(bench, users.splice(0, half), concurrency, { reset: true });
    if (stopSampling) service.get(workers)!.activity.push(await stopSampling());
    service.get(workers)!.runs.push(run);
    note(
      `${workers} worker(s): ${run.timings.length} intents, ${(run.timings.length / (run.spanMs / 1000)).toFixed(1)}/s`,
    );
    await new Promise((resolve) => setTimeout(resolve, SETTLE_QUIET_MS));
    const { sent } = service.get(workers)!;
    for (const [purpose, n] of await wb.activity.transactionsByPurpose())
      sent.set(purpose, (sent.get(purpose) ?? 0) + n - (sentBefore.get(purpose) ?? 0));
    const { rpc } = service.get(workers)!;
    for (const [method, n] of rpcCalls())
      rpc.set(method, (rpc.get(method) ?? 0) + n - (rpcBefore.get(method) ?? 0));
  };
  const bareFirst = await runBare(bench, users.splice(0, halves[0]), concurrency);
  for (const n of counts) await runCount(n, halves[0]);
  for (const n of [...counts].reverse()) await runCount(n, halves[1]);
  const bareSecond = await runBare(bench, users.splice(0, halves[1]), concurrency);
  return {
    concurrency,
    bare: measure(pool(bareFirst, bareSecond)),
    services: counts.map((workers) => {
      const { runs, activity, idle, sent, rpc } = service.get(workers)!;
      return {
        workers,
        sent,
        rpc,
        idle: perSecond(idle, (IDLE_WATCH_MS * idle.length) / 1000),
        measured: measure(pool(runs[0]!, runs[1]!)),
        ...(activity.length > 0 && { activity: mergeActivity(activity) }),
      };
    }),
  };
}

/** CPU ms per second of each group over idle watches lasting `seconds` in all. */
function perSecond(spent: GroupSpent[], seconds: number): GroupSpent {
  return Object.fromEntries(Object.entries(sumSpent(spent)).map(([name, ms]) => [name, ms / seconds]));
}

function mergeActivity(samples: ActivitySample[]): ActivitySample {
  const seen = new Map<string, number>();
  for (const s of samples) for (const [key, n] of s.seen) seen.set(key, (seen.get(key) ?? 0) + n);
  return { ticks: samples.reduce((sum, s) => sum + s.ticks, 0), seen };
}

const ms = (v: number) => v.toFixed(1);

/** The workers' CPU ms per intent of one count. */
const workerCpu = (m: Measured) => (m.groups?.workers ?? 0) / m.count;

/** The watched figure: the workers' CPU per intent at the largest count ÷ at the smallest. */
export function workerCpuGrowth(result: WorkersResult): number {
  const first = result.services[0]!;
  const last = result.services[result.services.length - 1]!;
  return workerCpu(last.measured) / workerCpu(first.measured);
}

/** The table of the run and the watched figure; true when the workers' CPU per intent did not grow. */
export function printWorkers(result: WorkersResult, cores: number): boolean {
  const { bare } = result;
  const groupNames = ['self', 'api', 'workers', 'postgres', 'chains'] as const;
  const lines = [
    '',
    `database: postgres, one API process and N worker processes; ${result.concurrency} in flight; latency = deposit sent → SUCCEEDED (bare: → destination execution's receipt)`,
    '',
    '| run | intents | intents/s | ÷ bare | p50 ms | p50 ÷ bare | p99 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| bare (ceiling) | ${bare.count} | ${bare.perSecond.toFixed(1)} | 1.00 | ${bare.latency.p50.toFixed(0)} | 1.00 | ${bare.latency.p99.toFixed(0)} |`,
  ];
  for (const { workers, measured: m } of result.services) {
    lines.push(
      `| ${workers} worker${workers === 1 ? '' : 's'} | ${m.count} | ${m.perSecond.toFixed(1)} | ${(m.perSecond / bare.perSecond).toFixed(2)} | ${m.latency.p50.toFixed(0)} | ${(m.latency.p50 / bare.latency.p50).toFixed(2)} | ${m.latency.p99.toFixed(0)} |`,
    );
  }
  lines.push(
    '',
    `CPU ms per intent by process while the intents were in flight (self: the benchmark, i.e. the users' wallets; bare: also the direct sends); ceiling = ${cores} cores × 1000 / total`,
    '',
    '| run | self | api | workers | per worker | postgres | chains | total | ceiling intents/s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  const cpuRow = (name: string, m: Measured, workers: number) => {
    const g = m.groups ?? {};
    const per = (v: number | undefined) => (v ?? 0) / m.count;
    const total = groupNames.reduce((sum, k) => sum + per(g[k]), 0);
    const perWorker = workers > 0 ? ms(per(g.workers) / workers) : '–';
    const cells = [
      ms(per(g.self)),
      ms(per(g.api)),
      ms(per(g.workers)),
      perWorker,
      ms(per(g.postgres)),
      ms(per(g.chains)),
    ];
    return `| ${name} | ${cells.join(' | ')} | ${ms(total)} | ${((cores * 1000) / total).toFixed(1)} |`;
  };
  lines.push(cpuRow('bare', bare, 0));
  for (const { workers, measured } of result.services)
    lines.push(cpuRow(`${workers} worker(s)`, measured, workers));
  lines.push(
    '',
    `CPU ms per second with no intent in flight (${IDLE_WATCH_MS / 1000} s before each half; self: the benchmark)`,
    '',
    '| run | self | api | workers | per worker | postgres | chains |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const { workers, idle } of result.services) {
    const cells = [
      idle.self,
      idle.api,
      idle.workers,
      (idle.workers ?? 0) / workers,
      idle.postgres,
      idle.chains,
    ];
    lines.push(`| ${workers} worker(s) | ${cells.map((v) => ms(v ?? 0)).join(' | ')} |`);
  }
  lines.push(
    '',
    'CPU ms per intent above the idle cost (the in-flight figure less the idle rate over the time one intent took at that throughput): what each intent adds',
    '',
    '| run | api | workers | postgres | chains |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const { workers, idle, measured: m } of result.services) {
    const above = (k: string) =>
      ms(((m.groups?.[k] ?? 0) - ((idle[k] ?? 0) * m.count) / m.perSecond) / m.count);
    lines.push(
      `| ${workers} worker(s) | ${['api', 'workers', 'postgres', 'chains'].map(above).join(' | ')} |`,
    );
  }
  lines.push('', 'Operator transactions per intent, by purpose (each half and its quiet pause)', '');
  for (const { workers, sent, measured } of result.services) {
    const parts = [...sent]
      .sort((a, b) => b[1] - a[1])
      .map(([p, n]) => `${p} ${(n / measured.count).toFixed(2)}`);
    lines.push(`  ${workers} worker(s): ${parts.join(', ')}`);
  }
  for (const { workers, rpc, measured } of result.services) {
    if (rpc.size === 0) continue;
    lines.push(
      '',
      `JSON-RPC calls per intent of the API and ${workers} worker(s), both chains (each half and its quiet pause):`,
      formatCounts(rpc, measured.count),
    );
  }
  for (const { workers, activity } of result.services) {
    if (!activity) continue;
    lines.push('', `Postgres backends by state (mean over ${activity.ticks} samples), ${workers} worker(s):`);
    lines.push(...formatActivity(activity, ACTIVITY_LINES));
    const locks = nonceLocks(activity);
    lines.push(
      `  nonce rows: ${locks.held.toFixed(2)} backends hold one (nonce allocated, transaction not yet recorded), ${locks.waiting.toFixed(2)} wait for one`,
    );
  }
  const first = result.services[0]!;
  const last = result.services[result.services.length - 1]!;
  const growth = workerCpuGrowth(result);
  const met = growth <= MAX_WORKER_CPU_GROWTH;
  lines.push(
    '',
    `${met ? 'met   ' : 'MISSED'}  workers' CPU per intent: ${ms(workerCpu(last.measured))} ms with ${last.workers}, ${ms(workerCpu(first.measured))} ms with ${first.workers} (${growth.toFixed(2)}×; ≤ ${MAX_WORKER_CPU_GROWTH})`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return met;
}
