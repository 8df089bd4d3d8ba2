/**
 * The runs bench/e2e.ts is made of, shared by its single-process and --workers modes: quoting a run's
 * intents (untimed), the bare run (the same transactions sent directly, the engine stopped), the service
 * run (each intent through the official client), and pooling and measuring their halves.
 */
import type { Intent, TrailsApi } from '@0xtrails/api';
import { type Account, parseUnits } from 'viem';
import type { loadPlan } from '../../src/engine/load-plan.ts';
import type { IntentEventRecord } from '../../src/store/index.ts';
import type { CpuMeter, CpuSpent } from './cpu-meter.ts';
import { type BareOperator, runBareIntent } from './e2e-bare.ts';
import { type BenchChain, nonceCounter } from './e2e-chain.ts';
import { runServiceIntent } from './e2e-service.ts';
import type { IntentTiming } from './e2e-timing.ts';
import { type Percentiles, percentiles } from './percentiles.ts';
import { type GroupCpuMeter, type GroupSpent, sumSpent } from './process-cpu.ts';
import { formatCounts, type RpcCounter } from './rpc-counter.ts';
import { runPool } from './run-pool.ts';
import type { ServerStatements } from './server-statements.ts';
import { formatParses, formatStatements, type SqlCounter } from './sql-counter.ts';

/** What every intent moves (USDC base units, 6 decimals): small against the solver's 1,000,000 inventory. */
export const INTENT_AMOUNT = parseUnits('10', 6);
/** Quotes requested at once before a run (untimed): the quote path has its own benchmark. */
export const QUOTE_CONCURRENCY = 8;

/** --count-rpc / --count-sql: after the service run, settlements (not waited for) get this long (ms) before the counts are read. */
export const SETTLE_QUIET_MS = 3_000;

export const note = (msg: string) => process.stderr.write(`[e2e] ${msg}\n`);

export interface Measured {
  count: number;
  latency: Percentiles;
  /** Deposit seen mined → done (ms). */
  afterDeposit: Percentiles;
  /** 1-second blocks only: destination blocks after the deposit's block up to the destination execution's. */
  blocks?: Percentiles;
  perSecond: number;
  /** CPU spent during the run (after quoting), this process and the chains. */
  cpu: CpuSpent;
  /** --workers: CPU spent per group of processes (this one, the API, the workers, the chains, Postgres). */
  groups?: GroupSpent;
}

export interface Run {
  timings: IntentTiming[];
  cpu: CpuSpent;
  groups?: GroupSpent;
  /** From the first deposit sent to the last intent done (ms); for pooled halves, the sum of their spans. */
  spanMs: number;
  /** 1-second blocks only: blocks taken per intent (blocksTaken). */
  blocks?: number[];
}

export function spanOf(timings: IntentTiming[]): number {
  // An empty half (--intents 1) spans no time.
  if (timings.length === 0) return 0;
  return Math.max(...timings.map((t) => t.doneAt)) - Math.min(...timings.map((t) => t.depositSentAt));
}

/** Two halves of one side as one run: intents and CPU added up, throughput over the time both were running. */
export function pool(a: Run, b: Run): Run {
  const cpu = {
    selfMs: a.cpu.selfMs + b.cpu.selfMs,
    chainsMs: a.cpu.chainsMs + b.cpu.chainsMs,
    totalMs: a.cpu.totalMs + b.cpu.totalMs,
    mainThreadMs: a.cpu.mainThreadMs + b.cpu.mainThreadMs,
    mainThreadSystemMs: a.cpu.mainThreadSystemMs + b.cpu.mainThreadSystemMs,
    loopActiveMs: a.cpu.loopActiveMs + b.cpu.loopActiveMs,
    loopTotalMs: a.cpu.loopTotalMs + b.cpu.loopTotalMs,
  };
  return {
    timings: [...a.timings, ...b.timings],
    cpu,
    ...(a.groups && b.groups && { groups: sumSpent([a.groups, b.groups]) }),
    spanMs: a.spanMs + b.spanMs,
    ...(a.blocks && b.blocks && { blocks: [...a.blocks, ...b.blocks] }),
  };
}

export function measure({ timings, cpu, groups, spanMs, blocks }: Run): Measured {
  return {
    ...(groups && { groups }),
    count: timings.length,
    latency: percentiles(timings.map((t) => t.doneAt - t.depositSentAt)),
    afterDeposit: percentiles(timings.map((t) => t.doneAt - t.depositMinedAt)),
    ...(blocks && { blocks: percentiles(blocks) }),
    perSecond: timings.length / (spanMs / 1000),
    cpu,
  };
}

export interface Bench {
  api: TrailsApi;
  origin: BenchChain;
  destination: BenchChain;
  operator: { relayer: Account; solver: Account };
  engine: { start(): Promise<void>; stop(): Promise<void> };
  planOf(intentId: string): Promise<ReturnType<typeof loadPlan>>;
  /** The stored status and steps of an intent (in-process service), for the error of one that never ends. */
  describe?(intentId: string): Promise<string>;
  /** --count-rpc: one counting proxy per chain between the service and the node. */
  rpcCounters: RpcCounter[];
  /** --count-sql: the process's statements and large JSON parses. */
  sqlCounter?: SqlCounter;
  /** --server-statements: the Postgres server's time per statement. */
  serverStatements?: ServerStatements;
  cpu: CpuMeter;
  /** --workers: CPU per group of processes, beside `cpu`. */
  groupCpu?: GroupCpuMeter;
  /** The bench project's event log (in-process service): --stages reads the events after a number. */
  events?: { latest(): Promise<number>; after(seq: number): Promise<IntentEventRecord[]> };
}

/** Runs `run` between CPU snapshots of both meters: the run's timings, CPU and span. */
async function timed(bench: Bench, run: () => Promise<IntentTiming[]>): Promise<Run> {
  const groupsStarted = await bench.groupCpu?.snapshot();
  const started = bench.cpu.snapshot();
  const timings = await run();
  const cpu = bench.cpu.since(started);
  const groups = groupsStarted && (await bench.groupCpu!.since(groupsStarted));
  return { timings, cpu, ...(groups && { groups }), spanMs: spanOf(timings) };
}

export async function quoteAll(bench: Bench, users: Account[]): Promise<Intent[]> {
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
export async function runBare(bench: Bench, users: Account[], concurrency: number): Promise<Run> {
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
    return await timed(bench, () =>
      runPool(users, concurrency, (user, i) =>
        runBareIntent(
          { origin: bench.origin, destination: bench.destination },
          { ...bench.operator, nonces },
          { user, deposit: intents[i]!.depositTransaction as never, plan: plans[i]! },
        ),
      ),
    );
  } finally {
    await bench.engine.start();
  }
}

/**
 * --count-rpc / --count-sql span both service halves: the first half resets the counters, the second
 * prints them for `countedIntents` (both halves' intents).
 */
export type Counts = { reset: true } | { reset: false; countedIntents: number };

export async function runService(
  bench: Bench,
  users: Account[],
  concurrency: number,
  counts: Counts,
): Promise<Run> {
  const intents = await quoteAll(bench, users);
  if (counts.reset) {
    for (const counter of bench.rpcCounters) counter.reset();
    bench.sqlCounter?.reset();
    await bench.serverStatements?.reset();
  }
  const run = await timed(bench, () =>
    runPool(users, concurrency, (user, i) =>
      runServiceIntent(bench.api, bench.origin, { user, intent: intents[i]! }, bench.describe),
    ),
  );
  if (!counts.reset && (bench.rpcCounters.length > 0 || bench.sqlCounter || bench.serverStatements)) {
    await noteCounts(bench, counts.countedIntents, 'up to SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_QUIET_MS));
    await noteCounts(bench, counts.countedIntents, `with settlement (${SETTLE_QUIET_MS} ms later)`);
  }
  return run;
}

async function noteCounts(bench: Bench, intents: number, when: string): Promise<void> {
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
  if (bench.serverStatements)
    note(
      `the Postgres server's executor time per intent ${when}, by statement (pg_stat_statements):\n${await bench.serverStatements.report(intents)}`,
    );
}

function sumCounts(bench: Bench): Map<string, number> {
  const sum = new Map<string, number>();
  for (const counter of bench.rpcCounters)
    for (const [method, n] of counter.counts()) sum.set(method, (sum.get(method) ?? 0) + n);
  return sum;
}
