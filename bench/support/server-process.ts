/**
 * The measuring side of a benchmark whose API server runs in a child process (so its memory and event loop
 * are its own): forks the server script, compiled as `switchyard` runs the app or through tsx, and asks it
 * questions one answer each (bench/support/serve-bench-messages.ts answers them).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileScript } from '../../bin/compile-sources.js';
import type { FromServer, Question, ToServer } from './server-messages.ts';

/** Every phase gives up after this long (ms), so a broken run ends instead of hanging. */
export const PHASE_TIMEOUT_MS = 120_000;
/** After asking the server to stop, this long (ms) before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface ServerScript {
  /** The server's TypeScript source. */
  source: string;
  /** Where compileScript wrote it (bin/compile-sources.js). */
  compiled: string;
  /** Run the source through tsx instead of the compiled script. */
  tsx: boolean;
}

/**
 * The server script `bench/<name>.ts`, compiled the way `switchyard` runs the app (bin/compile-sources.js)
 * unless `tsx`, into build/bench/: inside the repository, so its packages resolve from node_modules.
 */
export async function prepareServerScript(name: string, tsx: boolean): Promise<ServerScript> {
  const source = fileURLToPath(new URL(`../${name}.ts`, import.meta.url));
  const compiled = fileURLToPath(new URL(`../../build/bench/${name}.mjs`, import.meta.url));
  if (!tsx) await compileScript(source, compiled);
  return { source, compiled, tsx };
}

export class ServerProcess<Counts> {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (m: FromServer<Counts>) => void>();
  private nextId = 1;
  constructor({ source, compiled, tsx }: ServerScript) {
    // --expose-gc: the idle and held figures are taken after a full collection (live memory, not garbage).
    this.child = fork(tsx ? source : compiled, [], {
      execArgv: tsx ? ['--import', 'tsx', '--expose-gc'] : ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: FromServer<Counts>) => {
      const answer = this.pending.get(m.id);
      this.pending.delete(m.id);
      answer?.(m);
    });
  }
  /** One request, one answer, in order. */
  ask<T extends FromServer<Counts>['type']>(
    question: Question,
    expect: T,
  ): Promise<Extract<FromServer<Counts>, { type: T }>> {
    const id = this.nextId++;
    return withTimeout(
      new Promise((resolve, reject) => {
        this.pending.set(id, (m) => {
          if (m.type === expect) resolve(m as Extract<FromServer<Counts>, { type: T }>);
          else reject(new Error(m.type === 'error' ? m.message : `expected ${expect}, got ${m.type}`));
        });
        this.child.send({ ...question, id });
      }),
      `server answer to ${question.type}`,
    );
  }
  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'stop', id: this.nextId++ } satisfies ToServer);
      setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS).unref();
    });
  }
}

export function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: not done in ${PHASE_TIMEOUT_MS} ms`)),
      PHASE_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The p-th percentile of ascending latencies by the index floor(p% of n); NaN when there are none. The
 * figures in docs/benchmarks.md for bench:wait and bench:events were taken with this rank.
 */
export const percentileByFloor = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
