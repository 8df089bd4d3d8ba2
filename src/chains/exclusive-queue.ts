import { createKeyedQueue } from '../internal/keyed-queue.ts';
import type { TaskLeaseHolder } from './task-leases.ts';

/**
 * Runs `job` alone among the jobs with the same key, in this process and in every other worker on the
 * database (TransactionSender.exclusive).
 */
export type RunExclusive = <T>(key: string, job: () => Promise<T>) => Promise<T>;

export function createExclusiveQueue(leases: TaskLeaseHolder): RunExclusive {
  // In this process a queue (no polling between its own steps); across workers the task lease.
  const queue = createKeyedQueue();
  return (key, job) => queue(key, () => leases.runExclusive(key, job));
}
