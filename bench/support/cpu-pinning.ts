/**
 * bench:e2e --pin: the benchmark's process (the service and the users' wallets) on CPU 0, the chains and
 * the Postgres server on the other CPUs, so the database's and the chains' CPU no longer competes with the
 * service's thread for a core: on a 2-core machine, what an operator gets by running Postgres on its own
 * machine, as far as one box can show it (no network between the service and the database). Linux only,
 * through util-linux's `taskset`; the Postgres server must run on this machine, and this process must be
 * allowed to set its affinity (root, or the server's own user).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import pg from 'pg';
import { procStatAfterComm } from './cpu-meter.ts';

const run = promisify(execFile);

export interface CpuPinning {
  /** What was pinned where, for the run's output. */
  description: string;
  /** The Postgres server back on the CPUs it had (the chains and this process end with the run). */
  restore(): Promise<void>;
}

/** Field 4 of /proc/<pid>/stat (the parent's pid), the second after the command; undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  const fields = procStatAfterComm(pid);
  return fields && Number(fields[1]);
}

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => parentOf(pid) === parent);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** The server's postmaster: the parent of the backend serving a connection of ours. */
async function postmasterOf(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const backend = rows[0]!.pid;
    const postmaster = parentOf(backend);
    if (postmaster === undefined || !commandOf(postmaster).includes('postgres'))
      throw new Error(
        `--pin: the Postgres server is not a process of this machine (its backend's pid ${backend} is not one here); run it here or drop --pin`,
      );
    return postmaster;
  } finally {
    await client.end();
  }
}

/** Every thread of each process onto `cpus` (a taskset list such as `1` or `0-3`). */
async function pin(pids: readonly number[], cpus: string): Promise<void> {
  for (const pid of pids) {
    try {
      await run('taskset', ['-a', '-cp', cpus, String(pid)]);
    } catch (error) {
      // A process that ended meanwhile (a backend closing) has nothing left to pin.
      if (parentOf(pid) === undefined) continue;
      throw new Error(`--pin: taskset could not pin pid ${pid} to CPU ${cpus}: ${(error as Error).message}`);
    }
  }
}

async function affinityOf(pid: number): Promise<string> {
  const { stdout } = await run('taskset', ['-cp', String(pid)]);
  return stdout.slice(stdout.lastIndexOf(':') + 1).trim();
}

/**
 * Pins this process to CPU 0 and `chainPids` with the Postgres server (its postmaster and every process
 * it has started; later backends inherit the postmaster's CPUs) to the rest. Call it once the devnet, the
 * database and the service are up; `restore()` on the way out.
 */
export async function pinCpus(options: {
  chainPids: readonly number[];
  databaseUrl: string | undefined;
}): Promise<CpuPinning> {
  const cores = availableParallelism();
  if (cores < 2) throw new Error(`--pin needs 2 CPUs or more; this process may use ${cores}`);
  const others = cores === 2 ? '1' : `1-${cores - 1}`;
  const postmaster = options.databaseUrl ? await postmasterOf(options.databaseUrl) : undefined;
  const serverCpus = postmaster === undefined ? undefined : await affinityOf(postmaster);
  await pin([process.pid], '0');
  await pin(options.chainPids, others);
  if (postmaster !== undefined) await pin([postmaster, ...childrenOf(postmaster)], others);
  const database = postmaster === undefined ? '' : ' and the Postgres server';
  return {
    description: `this process on CPU 0; the chains${database} on CPU ${others}`,
    async restore() {
      if (postmaster !== undefined) await pin([postmaster, ...childrenOf(postmaster)], serverCpus!);
    },
  };
}
