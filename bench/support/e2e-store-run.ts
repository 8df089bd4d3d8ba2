/**
 * One single-store automine run of bench/e2e.ts in its own child process (a fresh process, exactly as a
 * run by hand), its figures read back from --summary-json (support/e2e-summary.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type E2eSummary, readSummary } from './e2e-summary.ts';

const E2E = fileURLToPath(new URL('../e2e.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A failed child's stderr shown in the error: enough for its stack trace. */
const STDERR_TAIL_LINES = 30;
/** Characters of the child's stderr kept while it runs (the tail above needs only the end). */
const STDERR_KEPT_CHARS = 64 * 1024;
/** A child still running after this long (ms) is killed as hung: a 100-intent run takes about a minute. */
const CHILD_TIMEOUT_MS = 30 * 60_000;

export type Store = 'sqlite' | 'postgres';

/** What every run of a --db both command is asked for: its size, --pin and --warmup. */
export interface StoreRunOptions {
  intents: number;
  concurrency: number;
  /** --pin in the run (support/cpu-pinning.ts). */
  pin: boolean;
  /** --warmup of the run: intents per side run untimed first. */
  warmup: number;
}

/** A child that ended without a summary; `message` names the store and round and ends with its stderr's tail. */
export class StoreRunError extends Error {}

export function runStore(
  store: Store,
  size: StoreRunOptions,
  workDir: string,
  label: string,
): Promise<E2eSummary> {
  const file = join(workDir, `${label.replace(/\W+/g, '-')}-${store}.json`);
  const args = [
    ...['--import', 'tsx', E2E, '--db', store, '--mode', 'automine'],
    ...['--intents', String(size.intents), '--concurrency', String(size.concurrency)],
    ...['--summary-json', file],
    ...(size.pin ? ['--pin'] : []),
    ...['--warmup', String(size.warmup)],
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS);
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    const fail = (why: string) => {
      const tail = stderr.trimEnd().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
      reject(new StoreRunError(`${label}, ${store}: ${why}; its stderr ends:\n${tail || '(empty)'}`));
    };
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(`could not start bench/e2e.ts: ${error.message}`);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // 1 is a missed single-store mark: a figure here, not a failure.
      if (code !== 0 && code !== 1) {
        const how = hung
          ? `was killed as hung after ${CHILD_TIMEOUT_MS / 60_000} min`
          : signal
            ? `was killed by ${signal}`
            : `exited with code ${code}`;
        fail(`bench/e2e.ts ${how}`);
        return;
      }
      readSummary(file).then(resolve, (error: Error) =>
        fail(`bench/e2e.ts exited with code ${code} but its summary is unreadable: ${error.message}`),
      );
    });
  });
}
