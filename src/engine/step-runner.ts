/**
 * Leases due steps from the journal (intent_steps) and runs them, up to STEP_BATCH_SIZE at once. Queue
 * semantics live in the store (leases, SKIP LOCKED on Postgres); this loop only decides what a step's
 * outcome means: done (enqueue the next steps), wait (look again later), a retryable error (backoff), or
 * a final failure (the step records it on the receipt).
 */

import { mapChainError } from '../chains/map-chain-error.ts';
import type { StepOutcome } from '../metrics/metrics.ts';
import { isTerminal } from '../store/statuses.ts';
import type { IntentStep, LeasedStep, StepLease } from '../store/types.ts';
import {
  MAX_ERROR_LENGTH,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  STEP_BATCH_SIZE,
  STEP_LEASE_MS,
  STEP_LEASE_RENEW_MS,
  STEP_POLL_INTERVAL_MS,
} from './constants.ts';
import type { EngineContext, StepInput } from './context.ts';
import { IntentNotFoundError } from './errors.ts';
import { isRetryable } from './is-retryable.ts';
import { createPlanLoader } from './load-plan.ts';
import { rowAdvance } from './receipts.ts';
import { type DueTimes, STEP_IDLE_POLL_INTERVAL_MS } from './step-wakeups.ts';
import { STEPS } from './steps/index.ts';

export interface StepRunner {
  start(): void;
  /** Wakes the loop now (a step was enqueued in this process). */
  kick(): void;
  /**
   * A lease for `count` steps this process is about to journal, so that they run here at once without a lease
   * statement of their own; undefined when the loop is not running (an API process), is stopping, or has no
   * free slot for all of them (they are journaled pending, for the loop). The slots stay held until
   * `adopt` is called on the offer, which must be, also when the insert failed.
   */
  offer(count: number): StepOffer | undefined;
  /**
   * Stops leasing and waits for the steps in flight, at most `waitMs` (default: until they end); resolves to
   * the ids of the steps still running then, which the caller hands back (their leases are no longer renewed).
   */
  stop(waitMs?: number): Promise<number[]>;
}

export interface StepOffer extends StepLease {
  /** Runs the steps journaled under this lease and frees the slots held for the others. */
  adopt(steps: readonly LeasedStep[]): void;
}

export interface StepRunnerOptions {
  workerId: string;
  pollIntervalMs?: number;
  /**
   * The due times of the steps this process delays (step-wakeups.ts, noted by the store it writes them with).
   * With them the loop looks when they come and on intent changes (store.events), and otherwise only every
   * `idlePollIntervalMs`; without them it polls every `pollIntervalMs`.
   */
  due?: DueTimes;
  idlePollIntervalMs?: number;
  batchSize?: number;
  leaseMs?: number;
}

/**
 * Splits a step's successors into those to run at once and those journaled for later: a successor whose
 * first run could do nothing yet (StepDefinition.firstLookAt in the future) waits in the journal until then,
 * off the path of the steps the user is waiting for.
 */
function whenToRun(
  ctx: EngineContext,
  steps: readonly string[],
  input: StepInput,
): { now: string[]; later: { step: string; runAt: Date }[] } {
  const now: string[] = [];
  const later: { step: string; runAt: Date }[] = [];
  for (const step of steps) {
    const runAt = STEPS.get(step)?.firstLookAt?.(ctx, input);
    if (runAt && runAt.getTime() > Date.now()) later.push({ step, runAt });
    else now.push(step);
  }
  return { now, later };
}

/** Exponential backoff from the attempts on the row, capped. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_DELAY_MS);
}

export function createStepRunner(ctx: EngineContext, options: StepRunnerOptions): StepRunner {
  const pollMs = options.pollIntervalMs ?? STEP_POLL_INTERVAL_MS;
  const { due } = options;
  const idlePollMs = due
    ? Math.max(pollMs, options.idlePollIntervalMs ?? STEP_IDLE_POLL_INTERVAL_MS)
    : pollMs;
  const batch = options.batchSize ?? STEP_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? STEP_LEASE_MS;
  const renewMs = Math.min(STEP_LEASE_RENEW_MS, Math.floor(leaseMs / 4));
  const owner = options.workerId;
  // Every step of an intent gets the same plan: decoded at its first step in this process, not at each.
  const plans = createPlanLoader();
  const inFlight = new Set<Promise<void>>();
  // Slots held by offers whose steps are being journaled, and those offers until adopted (a stop waits for them).
  let reserved = 0;
  const offers = new Set<Promise<void>>();
  const busy = () => inFlight.size + reserved;
  // Ids of the steps this worker is running: their leases are renewed until they finish (heartbeat).
  const runningIds = new Set<number>();
  let stopping = false;
  let loop: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  // A kick that arrives while the loop is busy must not be lost: the next nap then returns at once.
  let kicked = false;
  // While napping: ends the nap earlier, at a due time noted meanwhile.
  let rearm: ((at: number) => void) | undefined;
  let lastTickAt = 0;
  let lastHintAt = Number.NEGATIVE_INFINITY;
  // The last look found no free slot, or filled every one: more steps may be due, waiting for a slot, so the
  // next step to end looks again. Otherwise a step's end needs no look: its successors were leased with its
  // completion (or it kicked), and whatever else comes due is announced (kick, hint, due time).
  let slotsFull = false;

  const nap = () =>
    new Promise<void>((resolve) => {
      if (kicked) {
        kicked = false;
        resolve();
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      let deadline = Number.POSITIVE_INFINITY;
      const arm = (at: number) => {
        if (at >= deadline) return;
        deadline = at;
        clearTimeout(timer);
        timer = setTimeout(done, Math.max(0, at - Date.now()));
      };
      function done() {
        clearTimeout(timer);
        wake = undefined;
        rearm = undefined;
        kicked = false;
        resolve();
      }
      const now = Date.now();
      // Within a poll interval of an intent change the loop keeps the short poll (the change may precede its
      // step); so does a change heard during the last look, which its statement may have missed.
      const hinted = now - lastHintAt < pollMs || lastHintAt >= lastTickAt;
      const pollUntil = hinted ? now + pollMs : now + idlePollMs;
      // A due time that passed after the last look began is kept (armed, it looks at once): that look may
      // not have seen its step.
      arm(Math.min(pollUntil, due?.next(lastTickAt) ?? Number.POSITIVE_INFINITY));
      wake = done;
      rearm = arm;
    });

  /**
   * An intent changed (here or in another process): a step may have been journaled for it. Looks now unless
   * the loop looked within a poll interval, and keeps polling every interval for one more, since the change
   * may be committed before the step it goes with (ExecuteIntent moves the status, then journals the deposit
   * step). Under steady traffic that is the short poll, and no look more than it.
   */
  function hint(): void {
    const now = Date.now();
    lastHintAt = now;
    if (now - lastTickAt >= pollMs) kick();
    else rearm?.(lastTickAt + pollMs);
  }

  async function run(step: LeasedStep): Promise<void> {
    const log = ctx.log.child({ intentId: step.intentId, step: step.step, attempt: step.attempts });
    const started = performance.now();
    const ran = (outcome: StepOutcome) =>
      ctx.metrics?.stepRun(step.step, outcome, (performance.now() - started) / 1000);
    let input: StepInput | undefined;
    try {
      const definition = STEPS.get(step.step);
      if (!definition) throw new IntentNotFoundError(`unknown step '${step.step}'`);
      // Read by the statement that leased the step where the store can (Postgres: one round trip less per
      // step); otherwise read now, just after the lease.
      const intent = step.intent ?? (await ctx.store.intents.getForEngine(step.intentId));
      if (!intent) throw new IntentNotFoundError(`intent ${step.intentId} not found`);
      if (isTerminal(intent.status) && !definition.runsAfterTerminal) {
        // An aborted or refunded intent: nothing more to send for it (refund and settle steps still run).
        await ctx.store.steps.complete({ id: step.id, owner });
        log.info('step skipped: the intent is terminal', { status: intent.status });
        return;
      }
      input = { intent, plan: plans.load(intent) };
      const result = await definition.run(ctx, input);
      ran(result.kind);
      if (result.kind === 'wait') {
        await ctx.store.steps.fail({
          id: step.id,
          owner,
          error: `waiting: ${result.reason}`,
          retryAt: new Date(Date.now() + result.afterMs),
        });
        return;
      }
      const { now: next, later } = whenToRun(ctx, result.next, input);
      // Successors that fit in the free slots are leased to this worker with the completion and run at
      // once: no lease statement of their own, no wait for the loop (this step's slot frees as it ends).
      const leaseNext = !stopping && next.length > 0 && busy() - 1 + next.length <= batch;
      const { leased } = await ctx.store.steps.complete({
        id: step.id,
        owner,
        enqueue: { intentId: step.intentId, steps: next, later, ...(leaseNext && { leaseMs }) },
        ...(result.row && {
          row: rowAdvance(step.intentId, result.row.kind, result.row.write, result.row.journalMark),
        }),
        // The intent's end and a held journal mark commit with the completion (one statement on Postgres).
        ...(result.end && { end: { intentId: step.intentId, ...result.end } }),
        ...(result.journalMark && { journalMark: result.journalMark }),
      });
      log.info('step done', { next: result.next });
      for (const leasedStep of leased) dispatch(leasedStep);
      if (next.length > leased.length) kick();
    } catch (error) {
      const mapped = mapChainError(error);
      const reason = `${mapped.name}: ${mapped.message}`.slice(0, MAX_ERROR_LENGTH);
      if (isRetryable(mapped)) {
        ran('retry');
        // A worker that is stopping hands the step back due now: another worker takes it over at once.
        const delay = stopping ? 0 : retryDelayMs(step.attempts);
        log.warn('step failed, will retry', { reason, delayMs: delay });
        await ctx.store.steps.fail({
          id: step.id,
          owner,
          error: reason,
          retryAt: new Date(Date.now() + delay),
        });
        return;
      }
      ran('failed');
      log.error('step failed for good', { reason });
      await ctx.store.steps.fail({ id: step.id, owner, error: reason });
      const definition = STEPS.get(step.step);
      if (definition && input) await definition.giveUp(ctx, input, mapped.message);
    }
  }

  /** Runs a step leased to this worker; its lease is renewed until it ends. */
  function dispatch(step: LeasedStep): void {
    runningIds.add(step.id);
    const job = run(step)
      .catch((error: unknown) => ctx.log.error('step bookkeeping failed', { stepId: step.id, error }))
      .finally(() => {
        runningIds.delete(step.id);
        inFlight.delete(job);
        if (slotsFull) kick();
      });
    inFlight.add(job);
  }

  function offer(count: number): StepOffer | undefined {
    if (!loop || stopping || count <= 0 || busy() + count > batch) return undefined;
    reserved += count;
    let settle = () => {};
    const held = new Promise<void>((resolve) => {
      settle = resolve;
    });
    offers.add(held);
    let open = true;
    return {
      owner,
      leaseMs,
      adopt(steps) {
        if (!open) return;
        open = false;
        reserved -= count;
        offers.delete(held);
        settle();
        for (const step of steps) dispatch(step);
        // A look that found the slots full may have counted this offer's: the slots it did not use are free.
        if (slotsFull) kick();
      },
    };
  }

  async function tick(): Promise<void> {
    const free = batch - busy();
    slotsFull = free <= 0;
    if (slotsFull) return;
    const steps = await ctx.store.steps.leaseDue({ owner, limit: free, leaseMs });
    slotsFull = steps.length === free;
    for (const step of steps) {
      if (step.takenOverFrom) tookOver(step);
      dispatch(step);
    }
  }

  /** The step's last worker stopped renewing its lease (it died or stalled): counted and logged. */
  function tookOver(step: IntentStep): void {
    ctx.metrics?.stepLeaseTakenOver(step.step);
    ctx.log.warn(
      'step taken over: the worker running it stopped renewing its lease, or died on this machine',
      {
        intentId: step.intentId,
        step: step.step,
        from: step.takenOverFrom,
        attempt: step.attempts,
      },
    );
  }

  function kick(): void {
    if (wake) wake();
    else kicked = true;
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      heartbeat = setInterval(() => {
        ctx.store.steps
          .renew({ ids: [...runningIds], owner, leaseMs })
          .catch((error: unknown) => ctx.log.warn('renewing step leases failed', { error }));
      }, renewMs);
      const unwatch = due?.watch((at) => rearm?.(at));
      const unsubscribe = due
        ? [ctx.store.events.subscribeAll(hint), ctx.store.events.subscribeMissed(hint)]
        : [];
      const current = (async () => {
        while (!stopping) {
          lastTickAt = Date.now();
          try {
            await tick();
          } catch (error) {
            ctx.log.warn('leasing steps failed; retrying', { error });
          }
          if (!stopping) await nap();
        }
        // A step ending now may have started a successor it leased before it saw `stopping`: wait for those too.
        // So may a step journaled under an offer.
        while (busy() > 0) await Promise.allSettled([...inFlight, ...offers]);
        clearInterval(heartbeat);
        unwatch?.();
        for (const stopHearing of unsubscribe) stopHearing();
      })();
      // A loop a bounded stop() left draining (steps handed back) still counts: no second loop beside it.
      loop = current;
      void current.finally(() => {
        if (loop === current) loop = undefined;
      });
    },
    kick,
    offer,
    async stop(waitMs = Number.POSITIVE_INFINITY) {
      stopping = true;
      kick();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        if (Number.isFinite(waitMs)) timer = setTimeout(() => resolve('timeout'), waitMs);
      });
      const ended = await Promise.race([loop, timedOut]);
      clearTimeout(timer);
      if (ended !== 'timeout') return [];
      // The steps left running are the caller's to hand back; no renewal may extend them meanwhile.
      clearInterval(heartbeat);
      return [...runningIds];
    },
  };
}
