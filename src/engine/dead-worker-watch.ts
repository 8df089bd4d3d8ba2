/**
 * Ends the leases of workers that died on this machine: once when the engine starts (a restart after a
 * crash), then every DEAD_WORKER_LOOK_MS (a sibling worker on the same machine that died and was not
 * restarted). Each look is one read of the lease owners. The first look's failure fails the engine's start,
 * as the database is needed for everything after it; a later look that fails (the database away) is logged
 * and the next one tries again.
 */
import type { Logger } from '../internal/logger.ts';
import type { Store } from '../store/types.ts';
import { DEAD_WORKER_LOOK_MS } from './constants.ts';
import { endDeadWorkersLeases } from './end-dead-workers-leases.ts';

export interface DeadWorkerWatch {
  /** The first look, awaited; later looks run on a timer until stop. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createDeadWorkerWatch(deps: {
  store: Pick<Store, 'steps' | 'taskLeases' | 'webhooks' | 'events'>;
  log: Logger;
  intervalMs?: number;
}): DeadWorkerWatch {
  const { store, log } = deps;
  const intervalMs = deps.intervalMs ?? DEAD_WORKER_LOOK_MS;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();
  let stopped = true;

  async function look(): Promise<void> {
    const ended = await endDeadWorkersLeases({ store, log });
    // Every worker's loop hears intent changes: the freed steps are leased now, not at an idle poll.
    for (const intentId of new Set(ended.intentIds)) await store.events.publish(intentId);
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      looking = look()
        .catch((error: unknown) =>
          log.warn('could not look for dead workers’ leases', { error: (error as Error).message }),
        )
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  return {
    async start() {
      stopped = false;
      await look();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking;
    },
  };
}
