/**
 * The figures of one single-store automine run of bench/e2e.ts as JSON (--summary-json FILE), for a parent
 * that runs the bench as child processes (support/e2e-stores.ts) without parsing its printed tables.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { Measured } from './e2e-runs.ts';

/** Milliseconds per intent over a run's in-flight span, as bench/e2e.ts prints them. */
export interface CpuPerIntent {
  /** The benchmark's process. */
  process: number;
  chains: number;
  /** The Postgres backends serving the service; null for SQLite (inside the process) and for bare. */
  database: number | null;
  mainThread: number;
  /** The main thread's kernel (system) time, part of `mainThread`: socket writes and reads, wake-ups. */
  mainThreadSystem: number;
  /** Time the main thread's event loop was busy. */
  busy: number;
  /** Not per intent: the share of the span the event loop was busy (0–1). */
  loopBusy: number;
}

export interface RunSummary {
  intentsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  cpuPerIntent: CpuPerIntent;
}

export interface E2eSummary {
  db: 'sqlite' | 'postgres';
  mode: 'automine';
  intents: number;
  concurrency: number;
  service: RunSummary;
  bare: RunSummary;
  /** os.loadavg()[0] when the run ended. */
  load1: number;
}

/** A run's CPU per intent; `database`: the Postgres backends' milliseconds over the run, when measured. */
export function cpuPerIntent(m: Measured, database: number | undefined): CpuPerIntent {
  const per = (v: number) => v / m.count;
  return {
    process: per(m.cpu.selfMs),
    chains: per(m.cpu.chainsMs),
    database: database === undefined ? null : per(database),
    mainThread: per(m.cpu.mainThreadMs),
    mainThreadSystem: per(m.cpu.mainThreadSystemMs),
    busy: per(m.cpu.loopActiveMs),
    loopBusy: m.cpu.loopActiveMs / m.cpu.loopTotalMs,
  };
}

function runSummary(m: Measured, database: number | undefined): RunSummary {
  return {
    intentsPerSecond: m.perSecond,
    p50Ms: m.latency.p50,
    p90Ms: m.latency.p90,
    p99Ms: m.latency.p99,
    cpuPerIntent: cpuPerIntent(m, database),
  };
}

export async function writeSummary(
  file: string,
  run: { db: E2eSummary['db']; intents: number; concurrency: number; service: Measured; bare: Measured },
): Promise<void> {
  const summary: E2eSummary = {
    db: run.db,
    mode: 'automine',
    intents: run.intents,
    concurrency: run.concurrency,
    service: runSummary(run.service, run.service.groups?.database),
    bare: runSummary(run.bare, undefined),
    load1: loadavg()[0]!,
  };
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
}

export async function readSummary(file: string): Promise<E2eSummary> {
  const summary = JSON.parse(await readFile(file, 'utf8')) as E2eSummary;
  if (summary.mode !== 'automine' || typeof summary.service?.intentsPerSecond !== 'number')
    throw new Error(`${file} is not a bench/e2e.ts automine summary`);
  return summary;
}
