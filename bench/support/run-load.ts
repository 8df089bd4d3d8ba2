/** Runs one load job in a child process (bench/support/load-generator.ts) and returns its result. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-generator.ts';

const GENERATOR = fileURLToPath(new URL('./load-generator.ts', import.meta.url));
/** The child gets this long beyond the job's duration before it is killed as hung (ms). */
const GRACE_MS = 30_000;

export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(GENERATOR, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), job.durationMs + GRACE_MS);
    child.once('message', (message: { ok: boolean; result?: LoadResult; error?: string }) => {
      clearTimeout(timer);
      if (message.ok) resolve(message.result!);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`load generator exited with code ${code} before reporting`));
    });
    child.send(job);
  });
}
