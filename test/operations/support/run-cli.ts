/**
 * Runs the `switchyard` command as a child process (node bin/switchyard.js, as an operator runs it) with the
 * given environment on top of a clean one: the test's own DATABASE_URL and operator keys never leak in.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../../bin/switchyard.js');
/** A CLI run on this loaded 2-core machine: compile check, connect, a few transactions (ms). */
const CLI_TIMEOUT_MS = 120_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parent environment without anything that configures Switchyard. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        !entry[0].startsWith('SWITCHYARD_') &&
        !['DATABASE_URL', 'PORT', 'HOST'].includes(entry[0]),
    ),
  );
}

export function runCli(args: string[], env: Record<string, string>, cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...cleanEnv(), ...env }, cwd, timeout: CLI_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
