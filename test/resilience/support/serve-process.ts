/**
 * `switchyard serve --config FILE` as a child process (node bin/switchyard.js), the way an operator runs
 * it: operator keys in the environment, one fixed loopback port across restarts, stdout/stderr appended
 * to a log file in the data dir (read it when a test fails). `kill()` is SIGKILL: no shutdown handler
 * runs, exactly like a crash or a power cut.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';

/** Start-up (tsx compile, migrations, engine start) takes 1–3 s; a loaded 2-core machine needs more (ms). */
const START_TIMEOUT_MS = 60_000;
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const READY_LINE = /Switchyard API on (\S+)/;

export interface ServeProcessOptions {
  configPath: string;
  env: Record<string, string>;
  logPath: string;
}

export interface ServeProcess {
  /** The API's base URL once it printed its ready line. */
  url: string;
  pid: number;
  /** Resolves when the process has exited (signal name, or exit code). */
  exited: Promise<string>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (clean shutdown), then waits for the exit. */
  stop(): Promise<void>;
}

export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const log = createWriteStream(options.logPath, { flags: 'a' });
  log.write(`\n--- start ${new Date().toISOString()} ${options.env.SWITCHYARD_DEBUG_CRASH_AT ?? ''}\n`);
  // The config file names the store; an inherited DATABASE_URL (CI sets one) would override it and
  // point the child at a database where the test's access key does not exist.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/switchyard.js', 'serve', '--config', options.configPath], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      log.write(`--- exit ${signal ?? code}\n`);
      resolve(signal ?? String(code));
    });
  });
  child.stderr?.pipe(log, { end: false });
  const url = await readyUrl(child, log, exited);
  const terminate = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    log.end();
  };
  return {
    url,
    pid: child.pid!,
    exited,
    kill: () => terminate('SIGKILL'),
    stop: () => terminate('SIGTERM'),
  };
}

function readyUrl(child: ChildProcess, log: WriteStream, exited: Promise<string>): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchyard serve did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      buffered += chunk.toString();
      const match = READY_LINE.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`switchyard serve exited (${how}) before it was ready; see the log`));
    });
  });
}
