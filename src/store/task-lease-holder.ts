/**
 * One worker's use of task leases (task-leases.ts): work that is not an intent's step and must be done by one
 * of several workers at a time, and taken over when the one doing it dies.
 *
 * - `hold(task)`: take or renew a task this worker keeps between rounds (the deposit watcher: whoever holds
 *   it scans; the others skip their rounds). A holder that stops renewing loses it after `leaseMs`.
 * - `runIfFree(task, job)`: run a job only if no other worker runs it now; the lease is renewed while the
 *   job runs (a restore can take minutes) and released after, so the next trigger, on any worker, runs it.
 * - `runExclusive(task, job)`: the same, waiting for the lease instead of giving up (the solver's approve of
 *   a token: the second fill must see the first one's allowance, not send its own).
 *
 * The jobs themselves stay idempotent: a lease is what keeps the work from being done twice in the normal
 * case, not what makes doing it twice harmless (a holder paused past its lease can overlap the next one).
 */
import type { TaskLeaseHolder } from '../chains/task-leases.ts';
import type { Logger } from '../internal/logger.ts';
import type { TaskLeasesRepo } from './types.ts';

/**
 * How long a task stays with a worker that stopped renewing (ms): a dead worker's task is taken over within
 * this. Like a step's lease (STEP_LEASE_MS): short, because a live holder renews it.
 */
export const TASK_LEASE_MS = 10_000;
/** A worker waiting for an exclusive task asks again this often (ms): such waits are rare and short. */
export const TASK_LEASE_POLL_MS = 250;

export type { TaskLeaseHolder };

export interface TaskLeaseHolderDeps {
  taskLeases: TaskLeasesRepo;
  /** This worker's name in the leases (the engine's worker id). */
  owner: string;
  log: Logger;
  leaseMs?: number;
  pollMs?: number;
}

export function createTaskLeaseHolder(deps: TaskLeaseHolderDeps): TaskLeaseHolder {
  const { taskLeases, owner, log } = deps;
  const leaseMs = deps.leaseMs ?? TASK_LEASE_MS;
  const pollMs = deps.pollMs ?? TASK_LEASE_POLL_MS;
  const renewEveryMs = Math.floor(leaseMs / 4);

  const hold = (task: string) => taskLeases.acquire({ task, owner, leaseMs });

  /** Runs the job while renewing the lease; releases it after, whatever the job did. */
  async function whileHeld<T>(task: string, job: () => Promise<T>): Promise<T> {
    const heartbeat = setInterval(() => {
      hold(task).then(
        (held) => {
          if (!held)
            log.warn('a task lease was lost while its job ran (another worker took it over)', { task });
        },
        (error: unknown) => log.warn('renewing a task lease failed', { task, error }),
      );
    }, renewEveryMs);
    try {
      return await job();
    } finally {
      clearInterval(heartbeat);
      await taskLeases
        .release({ task, owner })
        .catch((error: unknown) =>
          log.warn('releasing a task lease failed; it runs out on its own', { task, error }),
        );
    }
  }

  return {
    hold,
    async release(task) {
      await taskLeases.release({ task, owner });
    },
    async runIfFree(task, job) {
      if (!(await hold(task))) return { ran: false };
      return { ran: true, value: await whileHeld(task, job) };
    },
    async runExclusive(task, job) {
      while (!(await hold(task))) await new Promise((resolve) => setTimeout(resolve, pollMs));
      return whileHeld(task, job);
    },
  };
}
