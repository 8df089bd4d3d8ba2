/**
 * `switchyard serve --config FILE --port PORT` as a child process (node bin/switchyard.js), the way an
 * operator runs it: operator keys in the environment, stdout/stderr appended to a log file in the data dir
 * (read it when a test fails). The port is chosen by the caller for each start (a fresh one each time, so
 * a child that outlived its test can never make the next start fail with EADDRINUSE). `kill()` is SIGKILL:
 * no shutdown handler runs, exactly like a crash or a power cut.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';

/** Start-up (tsx compile, migrations, engine start) takes 1–3 s; a loaded 2-core machine needs more (ms). */
const START_TIMEOUT_MS = 60_000;
/** A clean shutdown takes well under a second; past this the child is SIGKILLed so no test waits on it (ms). */
const STOP_GRACE_MS = 15_000;
/** How much of the child's latest output a start failure quotes (characters): enough for one stack trace. */
const OUTPUT_TAIL_CHARS = 2_000;
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const READY_LINE = /Switchyard API on (\S+)/;

export interface ServeProcessOptions {
  configPath: string;
  /** The API port of this run (the `--port` flag, which wins over the config file's `port`). */
  port: number;
  env: Record<string, string>;
  logPath: string;
}

export interface ServeProcess {
  /** The API's base URL once it printed its ready line. */
  url: string;
  pid: number;
  /** Resolves when the process has exited (signal name, or exit code). */
  exited: Promise<string>;
  /** True once the process has exited. */
  hasExited(): boolean;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (clean shutdown), then waits for the exit; SIGKILL if it takes longer than STOP_GRACE_MS. */
  stop(): Promise<void>;
}

/** The child exited (or was killed for being slow) before it printed its ready line. */
export class ServeStartError extends Error {
  constructor(
    message: string,
    /** The child's last output (stdout and stderr), e.g. an EADDRINUSE stack. */
    readonly output: string,
  ) {
    super(`${message}\n--- last output ---\n${output}`);
    this.name = 'ServeStartError';
  }
}

export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const log = createWriteStream(options.logPath, { flags: 'a' });
  log.write(
    `\n--- start ${new Date().toISOString()} port ${options.port} ${options.env.SWITCHYARD_DEBUG_CRASH_AT ?? ''}\n`,
  );
  // The config file names the store; an inherited DATABASE_URL (CI sets one) would override it and
  // point the child at a database where the test's access key does not exist.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    ['bin/switchyard.js', 'serve', '--config', options.configPath, '--port', String(options.port)],
    { cwd: REPO_ROOT, env: { ...inherited, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let done = false;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      log.write(`--- exit ${signal ?? code} (pid ${child.pid})\n`);
      resolve(signal ?? String(code));
    });
  });
  // 'close' comes after the child's stdout and stderr have ended: nothing more can be written to the log.
  child.once('close', () => log.end());
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const url = await readyUrl(child, exited, () => tail);
  const terminate = async (signal: NodeJS.Signals) => {
    if (!done) child.kill(signal);
    if (signal !== 'SIGKILL') {
      const grace = setTimeout(() => {
        log.write(`--- no exit ${STOP_GRACE_MS} ms after ${signal}: SIGKILL\n`);
        child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      await exited.finally(() => clearTimeout(grace));
    }
    await exited;
  };
  return {
    url,
    pid: child.pid!,
    exited,
    hasExited: () => done,
    kill: () => terminate('SIGKILL'),
    stop: () => terminate('SIGTERM'),
  };
}

function readyUrl(child: ChildProcess, exited: Promise<string>, tail: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ServeStartError(`switchyard serve did not start within ${START_TIMEOUT_MS} ms`, tail()));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = READY_LINE.exec(buffered);
      if (match) {
        ready = true;
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((how) => {
      clearTimeout(timer);
      if (!ready) reject(new ServeStartError(`switchyard serve exited (${how}) before it was ready`, tail()));
    });
  });
}
