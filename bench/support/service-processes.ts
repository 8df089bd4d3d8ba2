/**
 * The service as separate `switchyard serve` processes on one Postgres database, the layout of
 * docs/operations.md "Several processes on one database": one `--role api` process and N `--role worker`
 * processes, started from this checkout's `bin/switchyard.js` with the devnet's chains in a config file and
 * the operator keys in the environment. `setWorkers(n)` starts or stops (SIGTERM, the clean stop) workers
 * until n run, so one benchmark run can measure several worker counts on the same chains and database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { toFileChain } from '../../test/harness/config-file.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/switchyard.js');
/** Start-up of one serve process (compile check, store, migrations, engine) on a loaded 2-core machine (ms). */
const READY_TIMEOUT_MS = 90_000;
/** A worker stops within ENGINE_STOP_WAIT_MS (10 s) and a second; past this it is killed (ms). */
const STOP_GRACE_MS = 20_000;
/** Output quoted when a process fails to start (characters). */
const TAIL_CHARS = 3_000;

export interface ServeProcess {
  name: string;
  pid: number;
  /** The API's base URL (role api). */
  url: string | undefined;
  /** SIGTERM, then SIGKILL after STOP_GRACE_MS; resolves once it exited. */
  stop(): Promise<void>;
}

export interface ServiceProcesses {
  apiUrl: string;
  api: ServeProcess;
  /** The workers running now, oldest first. */
  workers(): readonly ServeProcess[];
  /** Starts or stops workers until `count` run (new ones start together; the newest stop first). */
  setWorkers(count: number): Promise<void>;
  /** Stops every process. */
  stop(): Promise<void>;
}

export interface ServiceProcessesOptions {
  workDir: string;
  databaseUrl: string;
  chains: readonly ChainConfig[];
  /** SWITCHYARD_RELAYER_KEY and the other operator variables of docs/operations.md step 1. */
  operatorEnv: Record<string, string>;
  /** Connections per process (DATABASE_POOL_SIZE); undefined: the service's default. */
  poolSize?: number | undefined;
}

export async function startServiceProcesses(options: ServiceProcessesOptions): Promise<ServiceProcesses> {
  const configPath = path.join(options.workDir, 'switchyard.json');
  await writeFile(
    configPath,
    // No metrics listener: several processes share the machine, and the single-process bench has none.
    JSON.stringify({ chains: options.chains.map(toFileChain), metrics: false }, null, 2),
  );
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...options.operatorEnv,
    DATABASE_URL: options.databaseUrl,
    ...(options.poolSize !== undefined && { DATABASE_POOL_SIZE: String(options.poolSize) }),
  };
  const start = (name: string, role: 'api' | 'worker') =>
    startServe({
      name,
      args: [
        'serve',
        '--config',
        configPath,
        '--role',
        role,
        '--skip-checks',
        ...(role === 'api' ? ['--port', '0'] : []),
      ],
      env,
      logPath: path.join(options.workDir, `${name}.log`),
    });
  const api = await start('api', 'api');
  const running: ServeProcess[] = [];
  let started = 0;
  return {
    apiUrl: api.url!,
    api,
    workers: () => running,
    async setWorkers(count) {
      const adding = Array.from({ length: Math.max(0, count - running.length) }, () =>
        start(`worker-${started++}`, 'worker'),
      );
      running.push(...(await Promise.all(adding)));
      const leaving = running.splice(count);
      await Promise.all(leaving.map((w) => w.stop()));
    },
    async stop() {
      await Promise.all(running.splice(0).map((w) => w.stop()));
      await api.stop();
    },
  };
}

interface StartServeOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  logPath: string;
}

async function startServe(options: StartServeOptions): Promise<ServeProcess> {
  const log = createWriteStream(options.logPath, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, [BIN, ...options.args], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  child.once('close', () => log.end());
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let tail = '';
  let url: string | undefined;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} not ready within ${READY_TIMEOUT_MS} ms:\n${tail}`));
    }, READY_TIMEOUT_MS);
    const watch = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
      url ??= /Switchyard API on (\S+)/.exec(tail)?.[1];
      if (url || /Switchyard worker running/.test(tail)) {
        clearTimeout(timer);
        child.stdout?.off('data', watch);
        child.stderr?.off('data', watch);
        resolve();
      }
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(
        new Error(`${options.name} exited (${how}) before it was ready (log: ${options.logPath}):\n${tail}`),
      );
    });
  });
  return {
    name: options.name,
    pid: child.pid!,
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}
