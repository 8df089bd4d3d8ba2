/**
 * What wakes a worker's step loop besides its own kicks, so that it need not poll the journal every
 * STEP_POLL_INTERVAL_MS while nothing is due (docs/engine.md, "Waking the step loop"):
 *
 * - the due times of the steps this process delays (a retry, a wait, a successor journaled for later, a step
 *   enqueued to run at a time): `noteDueTimes` notes them as the store writes them, and the loop looks when
 *   the first comes;
 * - an intent change anywhere (`store.events`: this process's writes at once, other processes' through
 *   NOTIFY on Postgres): an API process journals a new intent's first step beside its status change, and a
 *   stopping worker announces each intent whose steps it handed back. The loop looks at once and keeps its
 *   short poll for one more interval, since the change may be committed first.
 *
 * A slow poll (STEP_IDLE_POLL_INTERVAL_MS) is the safety net for what neither says: leases of a dead worker
 * that ran out, steps delayed by a worker that died before their time.
 */
import type { IntentsRepo, StepsRepo } from '../store/types.ts';

/**
 * How often a worker with nothing due looks at the journal anyway (ms): a step whose due time only a dead
 * worker knew waits at most this long; a dead worker's leases already take STEP_LEASE_MS (10 s) to run out.
 */
export const STEP_IDLE_POLL_INTERVAL_MS = 2_000;
/** Due times are kept rounded up to this (ms): steps due within it share one look. */
const DUE_RESOLUTION_MS = 10;

export interface DueTimes {
  /** A step is due at `at` (ms since the epoch, this process's clock). */
  note(at: number): void;
  /**
   * The earliest noted time after `lookedAt` (when the loop's last look began), or undefined; times not
   * after it are dropped, since that look saw their steps. A time that passed during the look stays: the
   * look may have begun before it (a timer fires up to a few ms early against Date.now()).
   */
  next(lookedAt: number): number | undefined;
  /** Called with each noted time (the loop shortens its nap when it is earlier). */
  watch(listener: (at: number) => void): () => void;
}

export function createDueTimes(): DueTimes {
  const times = new Set<number>();
  const listeners = new Set<(at: number) => void>();
  return {
    note(at) {
      // Nobody looks (an API process: its engine's step loop never runs): nothing to keep.
      if (listeners.size === 0) return;
      const rounded = Math.ceil(at / DUE_RESOLUTION_MS) * DUE_RESOLUTION_MS;
      if (times.has(rounded)) return;
      times.add(rounded);
      for (const listener of listeners) listener(rounded);
    },
    next(lookedAt) {
      let earliest: number | undefined;
      for (const at of times) {
        if (at <= lookedAt) times.delete(at);
        else if (earliest === undefined || at < earliest) earliest = at;
      }
      return earliest;
    },
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The steps repository, with every time a write makes a step due later noted in `due`. */
export function noteDueTimes(steps: StepsRepo, due: Pick<DueTimes, 'note'>): StepsRepo {
  const note = (at: Date | undefined) => {
    if (at) due.note(at.getTime());
  };
  return {
    ...steps,
    enqueue(input) {
      note(input.runAt);
      return steps.enqueue(input);
    },
    enqueueAll(input) {
      for (const step of input.steps) note(step.runAt);
      return steps.enqueueAll(input);
    },
    complete(input) {
      for (const later of input.enqueue?.later ?? []) note(later.runAt);
      return steps.complete(input);
    },
    fail(input) {
      note(input.retryAt);
      return steps.fail(input);
    },
    requeue(input) {
      note(input.runAt);
      return steps.requeue(input);
    },
  };
}

/** The intents repository, with the due times of the steps a status move journals noted in `due`. */
export function noteMoveDueTimes(intents: IntentsRepo, due: Pick<DueTimes, 'note'>): IntentsRepo {
  return {
    ...intents,
    updateStatus(update) {
      for (const step of update.enqueue?.steps ?? []) if (step.runAt) due.note(step.runAt.getTime());
      return intents.updateStatus(update);
    },
  };
}
