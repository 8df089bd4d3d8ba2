import type { TaskLeaseHolder } from './task-leases.ts';

/**
 * Runs `job` alone among the jobs with the same key, in this process and in every other worker on the
 * database (TransactionSender.exclusive).
 */
export type RunExclusive = <T>(key: string, job: () => Promise<T>) => Promise<T>;

export function createExclusiveQueue(leases: TaskLeaseHolder): RunExclusive {
  // Tail of the queue per exclusive() key; entries are removed when their queue drains.
  const exclusiveTails = new Map<string, Promise<unknown>>();
  return function exclusive(key, job) {
    const previous = exclusiveTails.get(key) ?? Promise.resolve();
    // In this process a queue (no polling between its own steps); across workers the task lease.
    const leased = () => leases.runExclusive(key, job);
    const run = previous.then(leased, leased);
    const tail = run.catch(() => undefined);
    exclusiveTails.set(key, tail);
    void tail.then(() => {
      if (exclusiveTails.get(key) === tail) exclusiveTails.delete(key);
    });
    return run;
  };
}
