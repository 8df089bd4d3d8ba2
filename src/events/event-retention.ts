/**
 * The background task that bounds the event log: every EVENT_PURGE_INTERVAL_MS it deletes events older than
 * EVENT_RETENTION_MS, and webhook delivery records as old, in batches of EVENT_PURGE_BATCH with a pause
 * between them, until none is left. Every worker process runs it; on Postgres their batches skip each
 * other's rows (SKIP LOCKED), so many processes delete each row once and never wait on one another.
 */
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
/** Between batches (ms): other writers go first, so a backlog is worked off without starving them. */
const PAUSE_BETWEEN_BATCHES_MS = 20;

export interface EventRetentionOptions {
  retentionMs?: number | undefined;
  intervalMs?: number | undefined;
  batchSize?: number | undefined;
  now?: (() => Date) | undefined;
}

export interface EventRetention {
  start(): void;
  /** Stops the timer and waits for a run in progress to finish its batch. */
  stop(): Promise<void>;
  /** One run: batches until nothing old is left; answers how many rows went. */
  runOnce(): Promise<number>;
}

type Purge = (input: { before: Date; limit: number }) => Promise<number>;

export function createEventRetention(deps: {
  store: Pick<Store, 'eventLog' | 'webhooks'>;
  log: Logger;
  options?: EventRetentionOptions | undefined;
}): EventRetention {
  const retentionMs = deps.options?.retentionMs ?? EVENT_RETENTION_MS;
  const intervalMs = deps.options?.intervalMs ?? EVENT_PURGE_INTERVAL_MS;
  const limit = deps.options?.batchSize ?? EVENT_PURGE_BATCH;
  const now = deps.options?.now ?? (() => new Date());
  const purges: Purge[] = [
    (input) => deps.store.eventLog.deleteOlderThan(input),
    (input) => deps.store.webhooks.deleteDeliveriesOlderThan(input),
  ];
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
      for (const purge of purges) total += await drain(purge, before);
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
        if (deleted > 0) deps.log.info('deleted events and deliveries past their retention', { deleted });
      } catch (error) {
        deps.log.warn('deleting old events failed; retrying at the next run', { error });
      }
      schedule();
    }, intervalMs);
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
