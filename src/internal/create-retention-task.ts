/**
 * A background task that deletes rows past their retention: every interval it runs each purge, batch after
 * batch with a pause between them, until none is left. Every worker process runs such a task; on Postgres
 * their batches skip each other's rows (SKIP LOCKED), so many processes delete each row once and never wait
 * on one another. The quote retention (src/app/quote-retention.ts) and the event log's
 * (src/events/event-retention.ts) are built on it.
 */
import type { Logger } from './logger.ts';

/** Between batches (ms): other writers go first, so a backlog is worked off without starving them. */
const PAUSE_BETWEEN_BATCHES_MS = 20;

/** Deletes at most `limit` rows older than `before`; answers how many went. */
export type Purge = (input: { before: Date; limit: number }) => Promise<number>;

export interface RetentionTask {
  /** Runs every interval until stopped (the first run one interval after start). */
  start(): void;
  /** Stops the timer and waits for a run in progress to finish its batch. */
  stop(): Promise<void>;
  /** One run: batches until nothing past the retention is left; answers how many rows went. */
  runOnce(): Promise<number>;
}

export interface RetentionSchedule {
  /** How long a row is kept (ms). */
  retentionMs: number;
  /** Between runs (ms). */
  intervalMs: number;
  /** Rows per batch. */
  batchSize: number;
}

/** What a caller (a test, the configuration) may set instead of a task's own schedule. */
export interface RetentionOptions {
  retentionMs?: number | undefined;
  intervalMs?: number | undefined;
  batchSize?: number | undefined;
  /** The clock rows age by (tests move it); default the wall clock. */
  now?: (() => Date) | undefined;
}

export interface RetentionTaskDeps {
  /** Run in order, each until drained. */
  purges: readonly Purge[];
  /** The task's own schedule, each part of which `options` may override. */
  defaults: RetentionSchedule;
  options?: RetentionOptions | undefined;
  log: Logger;
  /** The log lines: after a run that deleted rows, and after a run that failed. */
  messages: { deleted: string; failed: string };
}

export function createRetentionTask(deps: RetentionTaskDeps): RetentionTask {
  const retentionMs = deps.options?.retentionMs ?? deps.defaults.retentionMs;
  const intervalMs = deps.options?.intervalMs ?? deps.defaults.intervalMs;
  const limit = deps.options?.batchSize ?? deps.defaults.batchSize;
  const now = deps.options?.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const drain = async (purge: Purge, before: Date) => {
    let total = 0;
    for (;;) {
      const deleted = await purge({ before, limit });
      total += deleted;
      if (deleted < limit || stopped) return total;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS));
    }
  };

  const runOnce = () => {
    running ??= (async () => {
      const before = new Date(now().getTime() - retentionMs);
      let total = 0;
      for (const purge of deps.purges) total += await drain(purge, before);
      return total;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      try {
        const deleted = await runOnce();
        if (deleted > 0) deps.log.info(deps.messages.deleted, { deleted });
      } catch (error) {
        // A database outage or a lost race: the next run picks up where this one stopped.
        deps.log.warn(deps.messages.failed, { error });
      }
      schedule();
    }, intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  };

  return {
    start() {
      stopped = false;
      if (!timer) schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
    runOnce,
  };
}
