/**
 * The background task that bounds the event log: every EVENT_PURGE_INTERVAL_MS it deletes events older than
 * EVENT_RETENTION_MS, and webhook delivery records as old, in batches of EVENT_PURGE_BATCH with a pause
 * between them, until none is left (the schedule, batches and many-process behaviour are
 * src/internal/create-retention-task.ts's).
 */
import {
  createRetentionTask,
  type RetentionOptions,
  type RetentionTask,
} from '../internal/create-retention-task.ts';
import type { Logger } from '../internal/logger.ts';
import type { Store } from '../store/index.ts';

/**
 * How long events are kept (ms): three days. A stream can resume from Last-Event-ID, and
 * `webhooks replay --since` can go back, this far; it is three times the webhooks' retry window (24 h), so
 * an endpoint that failed for a whole day can still be replayed for two more.
 */
export const EVENT_RETENTION_MS = 72 * 60 * 60 * 1000;
/** Between runs (ms): a minute's lag on three days' retention is nothing; an idle run is a few index reads. */
export const EVENT_PURGE_INTERVAL_MS = 60_000;
/** Rows per batch: a few milliseconds of one write on SQLite (the API waits behind it). */
export const EVENT_PURGE_BATCH = 1_000;

export type EventRetentionOptions = RetentionOptions;
export type EventRetention = RetentionTask;

export function createEventRetention(deps: {
  store: Pick<Store, 'eventLog' | 'webhooks'>;
  log: Logger;
  options?: EventRetentionOptions | undefined;
}): EventRetention {
  return createRetentionTask({
    purges: [
      (input) => deps.store.eventLog.deleteOlderThan(input),
      (input) => deps.store.webhooks.deleteDeliveriesOlderThan(input),
    ],
    defaults: {
      retentionMs: EVENT_RETENTION_MS,
      intervalMs: EVENT_PURGE_INTERVAL_MS,
      batchSize: EVENT_PURGE_BATCH,
    },
    options: deps.options,
    log: deps.log,
    messages: {
      deleted: 'deleted events and deliveries past their retention',
      failed: 'deleting old events failed; retrying at the next run',
    },
  });
}
