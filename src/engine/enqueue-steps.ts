/**
 * The engine's enqueue (EngineContext.enqueue, enqueueAll): a step this process journals due now is leased to
 * its own step loop by the insert and runs at once, when the loop has a free slot for it. Otherwise (an API
 * process, a stopping or busy worker) it is journaled pending and the loop is woken to lease it; on the paths
 * every intent takes (ExecuteIntent's deposit step, the destination step after the fill) that saves a lease
 * statement and the wait for the loop.
 */
import type { LeasedStep, StepsRepo } from '../store/types.ts';
import type { StepRunner } from './step-runner.ts';

export type StepsToEnqueue = readonly { step: string; runAt?: Date | undefined }[];

export async function enqueueSteps(
  steps: Pick<StepsRepo, 'enqueueAll'>,
  runner: Pick<StepRunner, 'offer' | 'kick'>,
  intentId: string,
  toEnqueue: StepsToEnqueue,
): Promise<void> {
  const now = Date.now();
  const dueNow = toEnqueue.filter(({ runAt }) => !runAt || runAt.getTime() <= now).length;
  const offer = dueNow > 0 ? runner.offer(dueNow) : undefined;
  let leased: LeasedStep[] = [];
  try {
    leased = await steps.enqueueAll({
      intentId,
      steps: toEnqueue.map(({ step, runAt }) => ({ step, ...(runAt && { runAt }) })),
      ...(offer && { lease: { owner: offer.owner, leaseMs: offer.leaseMs } }),
    });
  } finally {
    offer?.adopt(leased);
  }
  // A step due now and not leased here waits for the loop (one journaled before may be due too); a later
  // one's due time is noted as it is journaled (step-wakeups.ts).
  if (leased.length < dueNow) runner.kick();
}
