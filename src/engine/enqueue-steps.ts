/**
 * The engine's enqueue (EngineContext.enqueue, moveWithSteps): a step this process journals due now is leased
 * to its own step loop by the insert and runs at once, when the loop has a free slot for it. Otherwise (an API
 * process, a stopping or busy worker) it is journaled pending and the loop is woken to lease it; on the paths
 * every intent takes (ExecuteIntent's deposit step, the destination step after the fill) that saves a lease
 * statement and the wait for the loop.
 */
import type { JournalMark } from '../chains/transaction-journal.ts';
import type {
  IntentsRepo,
  LeasedStep,
  StatusUpdate,
  StatusUpdateResult,
  StepLease,
  StepsRepo,
} from '../store/types.ts';
import type { StepRunner } from './step-runner.ts';

export type StepsToEnqueue = readonly { step: string; runAt?: Date | undefined }[];

/** `journalMark`: a send's journal mark written with the steps (StepsRepo.enqueueAll's). */
export async function enqueueSteps(
  steps: Pick<StepsRepo, 'enqueueAll'>,
  runner: Pick<StepRunner, 'offer' | 'kick'>,
  intentId: string,
  toEnqueue: StepsToEnqueue,
  journalMark?: JournalMark,
): Promise<void> {
  await journalOffered(runner, toEnqueue, async (lease) => ({
    leased: await steps.enqueueAll({
      intentId,
      steps: stepRows(toEnqueue),
      ...(lease && { lease }),
      ...(journalMark && { journalMark }),
    }),
  }));
}

/**
 * A status move with the intent's steps journaled in it (intents.updateStatus's `enqueue`: one statement on
 * Postgres), the steps due now leased to this process's loop as `enqueueSteps` leases them.
 */
export async function moveWithSteps(
  intents: Pick<IntentsRepo, 'updateStatus'>,
  runner: Pick<StepRunner, 'offer' | 'kick'>,
  update: StatusUpdate,
  toEnqueue: StepsToEnqueue,
): Promise<StatusUpdateResult> {
  return journalOffered(runner, toEnqueue, (lease) =>
    intents.updateStatus({ ...update, enqueue: { steps: stepRows(toEnqueue), ...(lease && { lease }) } }),
  );
}

/** `write` journals `toEnqueue` under the loop's offer (if any) and says what it leased: the loop runs those. */
async function journalOffered<T extends { leased?: LeasedStep[] | undefined }>(
  runner: Pick<StepRunner, 'offer' | 'kick'>,
  toEnqueue: StepsToEnqueue,
  write: (lease: StepLease | undefined) => Promise<T>,
): Promise<T> {
  const now = Date.now();
  const dueNow = toEnqueue.filter(({ runAt }) => !runAt || runAt.getTime() <= now).length;
  const offer = dueNow > 0 ? runner.offer(dueNow) : undefined;
  let leased: readonly LeasedStep[] = [];
  let written: T;
  try {
    written = await write(offer && { owner: offer.owner, leaseMs: offer.leaseMs });
    leased = written.leased ?? [];
  } finally {
    offer?.adopt(leased);
  }
  // A step due now and not leased here waits for the loop (one journaled before may be due too); a later
  // one's due time is noted as it is journaled (step-wakeups.ts).
  if (leased.length < dueNow) runner.kick();
  return written;
}

const stepRows = (toEnqueue: StepsToEnqueue) =>
  toEnqueue.map(({ step, runAt }) => ({ step, ...(runAt && { runAt }) }));
