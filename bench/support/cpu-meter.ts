/**
 * CPU time spent by this process and by the chain processes between two snapshots, so a benchmark can
 * say how much machine one intent costs and what throughput the machine's cores allow at that cost.
 * Chain processes are read from /proc (Linux); elsewhere they count as zero and say so.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';

/** Kernel clock ticks per second for /proc/<pid>/stat times: 100 on every Linux we run (USER_HZ). */
const CLOCK_TICKS_PER_SECOND = 100;
/** Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the command's closing parenthesis. */
const UTIME_AFTER_COMM = 11;

export interface CpuSnapshot {
  /** This process: user + system milliseconds. */
  selfMs: number;
  /** The chain processes together: user + system milliseconds (0 where /proc is not readable). */
  chainsMs: number;
  /** This process's main thread alone: user + system milliseconds (from /proc; 0 where it cannot be read). */
  mainThreadMs: number;
  /** The main thread's system (kernel) milliseconds alone, part of mainThreadMs. */
  mainThreadSystemMs: number;
  /** This process's main thread: milliseconds its event loop was busy (active) and in all (active + idle). */
  loopActiveMs: number;
  loopTotalMs: number;
}

export interface CpuSpent extends CpuSnapshot {
  totalMs: number;
}

export interface CpuMeter {
  snapshot(): CpuSnapshot;
  since(start: CpuSnapshot): CpuSpent;
  /** Cores the machine offers: the ceiling is cores × 1000 / (CPU ms per intent) intents per second. */
  readonly cores: number;
}

/**
 * A process's user + system CPU time so far (ms), or one of its threads' with `thread`, from /proc; 0 when
 * it cannot be read (gone, not Linux).
 */
export function procCpuMs(pid: number, thread?: number): number {
  const { userMs, systemMs } = procCpuTimes(pid, thread);
  return userMs + systemMs;
}

/**
 * The fields of /proc/<pid>/stat (or of one thread's) after the command's closing parenthesis, since a command
 * may hold spaces: field 3 (state) is the first; undefined when it cannot be read (gone, not Linux).
 */
export function procStatAfterComm(pid: number, thread?: number): string[] | undefined {
  try {
    const stat = readFileSync(
      thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
      'utf8',
    );
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** procCpuMs's two parts, user and system (kernel), from one read of /proc; both 0 when it cannot be read. */
export function procCpuTimes(pid: number, thread?: number): { userMs: number; systemMs: number } {
  const fields = procStatAfterComm(pid, thread);
  if (!fields) return { userMs: 0, systemMs: 0 };
  const ms = (ticks: string | undefined) => (Number(ticks) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { userMs: ms(fields[UTIME_AFTER_COMM]), systemMs: ms(fields[UTIME_AFTER_COMM + 1]) };
}

/** `chainPids` is read at each snapshot, so a restarted chain process is followed. */
export function createCpuMeter(chainPids: () => number[]): CpuMeter {
  const snapshot = (): CpuSnapshot => {
    const usage = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    const mainThread = procCpuTimes(process.pid, process.pid);
    return {
      selfMs: (usage.user + usage.system) / 1000,
      chainsMs: chainPids().reduce((sum, pid) => sum + procCpuMs(pid), 0),
      mainThreadMs: mainThread.userMs + mainThread.systemMs,
      mainThreadSystemMs: mainThread.systemMs,
      loopActiveMs: loop.active,
      loopTotalMs: loop.active + loop.idle,
    };
  };
  return {
    snapshot,
    since(start) {
      const now = snapshot();
      const selfMs = now.selfMs - start.selfMs;
      const chainsMs = now.chainsMs - start.chainsMs;
      return {
        selfMs,
        chainsMs,
        totalMs: selfMs + chainsMs,
        mainThreadMs: now.mainThreadMs - start.mainThreadMs,
        mainThreadSystemMs: now.mainThreadSystemMs - start.mainThreadSystemMs,
        loopActiveMs: now.loopActiveMs - start.loopActiveMs,
        loopTotalMs: now.loopTotalMs - start.loopTotalMs,
      };
    },
    cores: availableParallelism(),
  };
}
