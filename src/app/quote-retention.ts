/**
 * The background task that keeps quotes from filling the database: every QUOTE_PURGE_INTERVAL_MS it deletes
 * the quotes nobody committed whose expiry is more than QUOTE_RETENTION_MS past, in batches of
 * QUOTE_PURGE_BATCH with a pause between them, until none is left (store: `expiredQuotes.deleteExpired`;
 * the schedule, batches and many-process behaviour are src/internal/create-retention-task.ts's).
 */
import {
  createRetentionTask,
  type RetentionOptions,
  type RetentionTask,
} from '../internal/create-retention-task.ts';
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

export type QuoteRetentionOptions = RetentionOptions;
export type QuoteRetention = RetentionTask;

export function createQuoteRetention(deps: {
  store: Pick<Store, 'expiredQuotes'>;
  log: Logger;
  options?: QuoteRetentionOptions | undefined;
}): QuoteRetention {
  return createRetentionTask({
    purges: [({ before, limit }) => deps.store.expiredQuotes.deleteExpired({ expiredBefore: before, limit })],
    defaults: {
      retentionMs: QUOTE_RETENTION_MS,
      intervalMs: QUOTE_PURGE_INTERVAL_MS,
      batchSize: QUOTE_PURGE_BATCH,
    },
    options: deps.options,
    log: deps.log,
    messages: {
      deleted: 'deleted expired quotes nobody committed',
      failed: 'deleting expired quotes failed; retrying at the next run',
    },
  });
}
