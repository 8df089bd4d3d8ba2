/**
 * One look for the leases of workers that died on this machine, which it ends at once instead of when they
 * run out (dead-worker-watch.ts looks at start and then periodically). A worker restarted after a crash (one
 * process under a supervisor) or a sibling on the same machine would otherwise leave the dead worker's
 * steps, tasks and webhook endpoints untouched for up to a lease (10 s by default). A lease is ended only
 * when the kernel says its owner's process is gone (src/internal/worker-id.ts); a live owner, or one on
 * another machine or in another PID namespace, keeps its lease until it runs out. Taking over early is as
 * safe as after expiry: the dead process signs nothing more, a statement of its that reaches the database
 * late meets the same lease checks as a stalled worker's after an expiry, and every step resumes from its
 * journal.
 */
import type { Logger } from '../internal/logger.ts';
import { deadOwnersInThisSpace } from '../internal/worker-id.ts';
import type { Store } from '../store/types.ts';

export interface EndedLeases {
  /** The dead workers whose leases were ended. */
  owners: string[];
  /** The intents of the steps they held. */
  intentIds: string[];
  /** How many task leases they held. */
  tasks: number;
  /** How many webhook endpoints' leases they held (their dispatchers). */
  webhookEndpoints: number;
}

export async function endDeadWorkersLeases(deps: {
  store: Pick<Store, 'steps' | 'taskLeases' | 'webhooks'>;
  log: Logger;
}): Promise<EndedLeases> {
  const { store, log } = deps;
  const held = await Promise.all([
    store.steps.leaseOwners(),
    store.taskLeases.leaseOwners(),
    store.webhooks.leaseOwners(),
  ]);
  const owners = deadOwnersInThisSpace(new Set(held.flat()));
  if (owners.length === 0) return { owners, intentIds: [], tasks: 0, webhookEndpoints: 0 };
  const [intentIds, tasks, webhookEndpoints] = await Promise.all([
    store.steps.endLeases({ owners }),
    store.taskLeases.endLeases({ owners }),
    store.webhooks.endLeases({ owners }),
  ]);
  log.info('ended the leases of workers that died on this machine', {
    owners,
    steps: intentIds.length,
    tasks,
    webhookEndpoints,
  });
  return { owners, intentIds, tasks, webhookEndpoints };
}
