/**
 * bench/e2e.ts --db both: SQLite against Postgres in one command. Each round runs the single-store automine
 * bench once per store, each in its own child process (support/e2e-store-run.ts), SQLite first in odd
 * rounds and Postgres first in even ones, so neither always runs on the warmer or cooler machine; then
 * the per-round ratios, their medians and the marks (support/e2e-stores-report.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStore, type Store, StoreRunError, type StoreRunOptions } from './e2e-store-run.ts';
import { type StoreRound, storesReport } from './e2e-stores-report.ts';
import type { E2eSummary } from './e2e-summary.ts';

export interface StoresOptions extends StoreRunOptions {
  rounds: number;
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

function progress(label: string, s: E2eSummary, seconds: number): string {
  const rate = s.service.intentsPerSecond.toFixed(1);
  const bare = s.bare.intentsPerSecond.toFixed(1);
  const p50 = ratio(s.service.p50Ms, s.bare.p50Ms);
  return `${label}, ${s.db}: ${rate} intents/s (bare ${bare}), p50 ${s.service.p50Ms.toFixed(0)} ms = ${p50} × bare, load ${s.load1.toFixed(2)}, ${seconds.toFixed(0)} s`;
}

/**
 * A round whose run failed is set aside and run again, up to this many times in one command: anvil now and
 * then leaves a key's next nonce queued in its pool (docs/benchmarks.md, "Runs that did not finish"), which
 * stops that one run, and the rounds already measured still count.
 */
const MAX_FAILED_ROUNDS = 3;

/**
 * The exit code: 0 when both marks are met, 1 when one is missed, 2 when a run failed (the report then
 * covers the complete rounds) or no round completed.
 */
export async function runStores(options: StoresOptions): Promise<number> {
  const workDir = await mkdtemp(join(tmpdir(), 'sw-bench-e2e-stores-'));
  process.stdout.write(
    `SQLite against Postgres: ${options.rounds} round(s) of automine, ${options.intents} intents, ${options.concurrency} in flight, one child process per run, ${options.warmup} untimed warm-up intents per side first; Postgres on ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'an embedded server per run'}${options.pin ? '; --pin: each run on CPU 0, its chains and the Postgres server on the others' : ''}\n`,
  );
  try {
    const rounds: StoreRound[] = [];
    let failed = 0;
    for (let round = 1; rounds.length < options.rounds && failed <= MAX_FAILED_ROUNDS; round++) {
      const order: Store[] = round % 2 === 1 ? ['sqlite', 'postgres'] : ['postgres', 'sqlite'];
      const label = `round ${round}`;
      const summaries: Partial<Record<Store, E2eSummary>> = {};
      try {
        for (const store of order) {
          const started = performance.now();
          const summary = await runStore(store, options, workDir, label);
          summaries[store] = summary;
          process.stdout.write(`${progress(label, summary, (performance.now() - started) / 1000)}\n`);
        }
      } catch (error) {
        if (!(error instanceof StoreRunError)) throw error;
        failed++;
        process.stderr.write(`bench/e2e.ts --db both: ${error.message}\n`);
        process.stdout.write(`${label}: a run failed (its stderr above); the round is set aside\n`);
        continue;
      }
      rounds.push({ round, first: order[0]!, sqlite: summaries.sqlite!, postgres: summaries.postgres! });
    }
    if (rounds.length === 0) return 2;
    const { lines, met } = storesReport(rounds);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (failed > 0) {
      process.stdout.write(
        `${failed} round(s) set aside after a failed run; the figures above are the ${rounds.length} complete ones\n`,
      );
      return 2;
    }
    return met ? 0 : 1;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
