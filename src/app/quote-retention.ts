/**
 * The background task that keeps quotes from filling the database: every QUOTE_PURGE_INTERVAL_MS it deletes
 * the quotes nobody committed whose expiry is more than QUOTE_RETENTION_MS past, in batches of
 * QUOTE_PURGE_BATCH with a pause between them, until none is left (store: `expiredQuotes.deleteExpired`).
 * Every worker process runs it; on Postgres their batches skip each other's rows, so running it in many
 * processes deletes each quote once and never waits on another.
 */
import type { Logger } from '../internal/logger.ts';
import type { Store } from '../store/index.ts';

/**
 * How long a quote nobody committed is kept after it expired: a day, so a wallet can still read a quote it
 * let lapse and an operator can look into a failed attempt, while one key quoting at its full rate keeps
 * about a day of quotes (~17 GB at 10 quotes/s of ~20 KB) instead of all of them.
 */
export const QUOTE_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Between runs (ms): a minute's lag on a day's retention is nothing, and an idle run is one indexed read. */
export const QUOTE_PURGE_INTERVAL_MS = 60_000;
/**
 * Quotes per batch: ~4 MB of rows, a few milliseconds of one write transaction on SQLite (the API waits
 * behind it), a few row locks held as briefly on Postgres.
 */
export const QUOTE_PURGE_BATCH = 200;
/** Between batches (ms): other writers go first, so a backlog is worked off without starving them. */
const PAUSE_BETWEEN_BATCHES_MS = 20;

export interface QuoteRetentionOptions {
  retentionMs?: number | undefined;
  intervalMs?: number | undefined;
  batchSize?: number | undefined;
  /** The clock quotes expire by (tests move it); default the wall clock. */
  now?: (() => Date) | undefined;
}

export interface QuoteRetention {
  /** Runs every interval until stopped (the first run one interval after start). */
  start(): void;
  /** Stops the timer and waits for a run in progress to finish its batch. */
  stop(): Promise<void>;
  /** One run: batches until no deletable quote is left; answers how many quotes were deleted. */
  runOnce(): Promise<number>;
}

export function createQuoteRetention(deps: {
  store: Pick<Store, 'expiredQuotes'>;
  log: Logger;
  options?: QuoteRetentionOptions | undefined;
}): QuoteRetention {
  const retentionMs = deps.options?.retentionMs ?? QUOTE_RETENTION_MS;
  const intervalMs = deps.options?.intervalMs ?? QUOTE_PURGE_INTERVAL_MS;
  const limit = deps.options?.batchSize ?? QUOTE_PURGE_BATCH;
  const now = deps.options?.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const purge = async (): Promise<number> => {
    const expiredBefore = new Date(now().getTime() - retentionMs);
    let total = 0;
    for (;;) {
      const deleted = await deps.store.expiredQuotes.deleteExpired({ expiredBefore, limit });
      total += deleted;
      if (deleted < limit || stopped) return total;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS));
    }
  };

  const runOnce = () => {
    running ??= purge().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      try {
        const deleted = await runOnce();
        if (deleted > 0) deps.log.info('deleted expired quotes nobody committed', { deleted });
      } catch (error) {
        // A database outage or a lost race: the next run picks up where this one stopped.
        deps.log.warn('deleting expired quotes failed; retrying at the next run', { error });
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
