/**
 * Runs a shell block from the docs as an operator would paste it: `bash -eu -o pipefail -c BLOCK` in a
 * working directory, with `switchyard` on the PATH (a shim for node bin/switchyard.js, what `npm link` gives)
 * and only the environment given (on top of a clean one). `startDocBlock` runs a block that keeps running
 * (serve) in its own process group, until its ready line.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CliResult, cleanEnv } from './run-cli.ts';

const BIN = path.resolve(import.meta.dirname, '../../../bin/switchyard.js');
/** One block: a CLI start, a few chain transactions or checks, on a loaded 2-core machine (ms). */
const BLOCK_TIMEOUT_MS = 120_000;
/** serve prints its ready line within seconds; room for a loaded machine and its start-up checks (ms). */
const READY_TIMEOUT_MS = 60_000;
/** After SIGTERM, a clean stop takes well under a second; then SIGKILL (ms). */
const STOP_GRACE_MS = 15_000;

/** A directory holding a `switchyard` executable that runs this checkout's command. */
export async function switchyardOnPath(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sw-bin-'));
  const shim = path.join(dir, 'switchyard');
  await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(shim, 0o755);
  return dir;
}

export interface BlockEnv {
  vars: Record<string, string>;
  binDir: string;
  cwd: string;
}

function environment({ vars, binDir }: BlockEnv): Record<string, string> {
  const base = cleanEnv();
  return { ...base, ...vars, PATH: `${binDir}${path.delimiter}${base.PATH ?? ''}` };
}

export function runDocBlock(script: string, env: BlockEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-eu', '-o', 'pipefail', '-c', script],
      { env: environment(env), cwd: env.cwd, timeout: BLOCK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface RunningBlock {
  /** The first match of `ready` in the block's stdout. */
  match: RegExpExecArray;
  output(): string;
  /** SIGTERM to the block's process group, then waits for it (SIGKILL after STOP_GRACE_MS). */
  stop(): Promise<number | null>;
}

export async function startDocBlock(script: string, env: BlockEnv, ready: RegExp): Promise<RunningBlock> {
  const child: ChildProcess = spawn('bash', ['-eu', '-o', 'pipefail', '-c', script], {
    env: environment(env),
    cwd: env.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line in ${READY_TIMEOUT_MS} ms:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
      const found = ready.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the block exited (${code}) before its ready line:\n${output}`));
    });
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  return {
    match,
    output: () => output,
    async stop() {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), STOP_GRACE_MS);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
