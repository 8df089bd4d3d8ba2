/**
 * CPU time per group of processes between two snapshots (bench:e2e --workers): the benchmark itself, the
 * API process, the workers, the chains, and the Postgres backends serving the benchmark's database, so the
 * CPU one intent costs can be split by process and compared across worker counts. Each process is read
 * from /proc/<pid>/stat (utime + stime). A process that appears between the snapshots counts from zero (a
 * Postgres backend opened mid-run); one that is gone by the second snapshot is left out.
 */
import { procCpuMs } from './cpu-meter.ts';

export type ProcessGroups = Record<string, readonly number[]>;

export interface GroupSnapshot {
  selfMs: number;
  /** pid → CPU ms so far, per group. */
  groups: Record<string, Map<number, number>>;
}

/** CPU ms spent per group between the snapshots, `self` being this process. */
export type GroupSpent = Record<string, number>;

/** The CPU ms of several spans, added group by group. */
export function sumSpent(spans: readonly GroupSpent[]): GroupSpent {
  const sum: GroupSpent = {};
  for (const spent of spans)
    for (const [name, ms] of Object.entries(spent)) sum[name] = (sum[name] ?? 0) + ms;
  return sum;
}

export interface GroupCpuMeter {
  snapshot(): Promise<GroupSnapshot>;
  since(start: GroupSnapshot): Promise<GroupSpent>;
}

/** `groups` is asked at each snapshot (the workers running now, the database's backends now). */
export function createGroupCpuMeter(groups: () => Promise<ProcessGroups>): GroupCpuMeter {
  const snapshot = async (): Promise<GroupSnapshot> => {
    const pids = await groups();
    const usage = process.cpuUsage();
    const read: GroupSnapshot['groups'] = {};
    for (const [name, list] of Object.entries(pids))
      read[name] = new Map(list.map((pid) => [pid, procCpuMs(pid)]));
    return { selfMs: (usage.user + usage.system) / 1000, groups: read };
  };
  return {
    snapshot,
    async since(start) {
      const now = await snapshot();
      const spent: GroupSpent = { self: now.selfMs - start.selfMs };
      for (const [name, pids] of Object.entries(now.groups)) {
        let sum = 0;
        for (const [pid, ms] of pids) if (ms > 0) sum += ms - (start.groups[name]?.get(pid) ?? 0);
        spent[name] = sum;
      }
      return spent;
    },
  };
}
