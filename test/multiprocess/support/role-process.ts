/**
 * One `switchyard serve` process started from a block of docs/operations.md as an operator pastes it:
 * `bash -eu -o pipefail -c BLOCK` in its own process group, `switchyard` on the PATH, only the environment
 * given on top of a clean one. Its output goes to a log file (read it when the test fails) and is watched for
 * the ready line (`Switchyard API on URL`, `Switchyard worker running`) and, for a worker, the engine's
 * `engine started` line with its worker id (the name its leases carry in the database).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { cleanEnv } from '../../operations/support/run-cli.ts';

/** Start-up (compile check, start-up checks, migrations, engine start) on a loaded 2-core machine (ms). */
const READY_TIMEOUT_MS = 90_000;
/** After SIGTERM a worker takes up to ENGINE_STOP_WAIT_MS (10 s) and a second; past this it is killed (ms). */
const STOP_GRACE_MS = 20_000;
/** Output kept to quote when a start fails (characters). */
const TAIL_CHARS = 3_000;

export type Role = 'api' | 'worker';

export interface RoleProcess {
  name: string;
  role: Role;
  /** The API's base URL (role api). */
  url: string | undefined;
  /** The engine's worker id, as its leases name it (role worker). */
  workerId: string | undefined;
  pid: number;
  hasExited(): boolean;
  /** SIGKILL to the process group, then its exit. */
  kill(): Promise<void>;
  /** SIGTERM (the clean stop); resolves with how it exited and how long it took (ms). */
  stop(): Promise<{ exit: string; ms: number }>;
}

export interface RoleProcessOptions {
  name: string;
  role: Role;
  /** The block's script, as docs/operations.md has it. */
  script: string;
  env: Record<string, string>;
  /** A directory holding the `switchyard` executable. */
  binDir: string;
  cwd: string;
  logPath: string;
}

export async function startRoleProcess(options: RoleProcessOptions): Promise<RoleProcess> {
  const log = createWriteStream(options.logPath, { flags: 'a' });
  log.write(`\n--- start ${options.name} ${new Date().toISOString()}\n`);
  const base = cleanEnv();
  const child: ChildProcess = spawn('bash', ['-eu', '-o', 'pipefail', '-c', options.script], {
    cwd: options.cwd,
    env: { ...base, ...options.env, PATH: `${options.binDir}${path.delimiter}${base.PATH ?? ''}` },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitedHow: string | undefined;
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedHow = signal ?? String(code);
      log.write(`--- exit ${options.name} ${exitedHow}\n`);
      resolve(exitedHow);
    }),
  );
  child.once('close', () => log.end());
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let tail = '';
  let url: string | undefined;
  let workerId: string | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal(child, 'SIGKILL');
      reject(new Error(`${options.name} not ready within ${READY_TIMEOUT_MS} ms:\n${tail}`));
    }, READY_TIMEOUT_MS);
    const watch = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
      workerId ??= workerIdIn(tail);
      url ??= /Switchyard API on (\S+)/.exec(tail)?.[1];
      const isReady = options.role === 'api' ? url !== undefined : /Switchyard worker running/.test(tail);
      if (isReady && (options.role === 'api' || workerId)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited (${how}) before it was ready:\n${tail}`));
    });
  });
  await ready;
  return {
    name: options.name,
    role: options.role,
    url,
    workerId,
    pid: child.pid!,
    hasExited: () => exitedHow !== undefined,
    async kill() {
      signal(child, 'SIGKILL');
      await exited;
    },
    async stop() {
      const started = Date.now();
      signal(child, 'SIGTERM');
      const grace = setTimeout(() => signal(child, 'SIGKILL'), STOP_GRACE_MS);
      const exit = await exited;
      clearTimeout(grace);
      return { exit, ms: Date.now() - started };
    },
  };
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // Already gone.
  }
}

/** The worker id from the engine's `engine started` log line (a JSON line), if it is there. */
function workerIdIn(output: string): string | undefined {
  const id = logEntries(output, 'engine started')[0]?.workerId;
  return typeof id === 'string' ? id : undefined;
}

/** The JSON log entries of a process's output with message `msg`; lines cut short or not JSON are passed over. */
export function logEntries(output: string, msg: string): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const line of output.split('\n')) {
    if (!line.includes(`"${msg}"`)) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.msg === msg) entries.push(entry);
    } catch {
      // A line cut by the tail or still being written, or not JSON.
    }
  }
  return entries;
}
