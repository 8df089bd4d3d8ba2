/**
 * Task leases within one process (a sender used alone: tests, tools): jobs of the same task never overlap
 * here, and nothing is known of other processes. The engine passes the store's leases instead.
 */
import type { TaskLeaseHolder } from './task-leases.ts';

export function createLocalTaskLeases(): TaskLeaseHolder {
  const held = new Set<string>();
  // Tail of each task's queue of exclusive jobs.
  const tails = new Map<string, Promise<unknown>>();

  return {
    async hold(task) {
      held.add(task);
      return true;
    },
    async release(task) {
      held.delete(task);
    },
    async runIfFree(task, job) {
      if (held.has(task) || tails.has(task)) return { ran: false };
      held.add(task);
      try {
        return { ran: true, value: await job() };
      } finally {
        held.delete(task);
      }
    },
    runExclusive(task, job) {
      const run = (tails.get(task) ?? Promise.resolve()).then(job, job);
      const tail = run.catch(() => {});
      tails.set(task, tail);
      void tail.then(() => {
        if (tails.get(task) === tail) tails.delete(task);
      });
      return run;
    },
  };
}
