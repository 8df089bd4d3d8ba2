/**
 * Intent change notifications across processes through Postgres LISTEN/NOTIFY. Each process holds
 * one dedicated listening connection (not one per waiter) and fans notifications out to its local
 * subscribers; publishing is a `pg_notify` on the shared pool.
 */
import type pg from 'pg';
import type { Logger } from '../internal/logger.ts';
import { createLocalIntentEvents } from './intent-events-local.ts';
import type { IntentEvents } from './types.ts';

export const INTENT_CHANNEL = 'switchyard_intent_changed';
/** Wait this long before re-opening a dropped listening connection. */
const RECONNECT_DELAY_MS = 1_000;

export interface PgIntentEventsDeps {
  pool: pg.Pool;
  /** Opens the dedicated listening connection (a fresh pg.Client, not a pooled one). */
  connect: () => Promise<pg.Client>;
  log: Logger;
}

export async function createPgIntentEvents(deps: PgIntentEventsDeps): Promise<IntentEvents> {
  const local = createLocalIntentEvents();
  let closed = false;
  let client: pg.Client | undefined;

  const listen = async (): Promise<void> => {
    const next = await deps.connect();
    next.on('notification', (message) => {
      if (message.channel === INTENT_CHANNEL && message.payload) local.deliver(message.payload);
    });
    next.on('error', (error) => {
      deps.log.warn('intent listener connection lost', { error });
      client = undefined;
      next.end().catch(() => {});
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    });
    await next.query(`LISTEN ${INTENT_CHANNEL}`);
    client = next;
  };
  const reconnect = async () => {
    try {
      await listen();
    } catch (error) {
      deps.log.warn('intent listener reconnect failed', { error });
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    }
  };

  await listen();
  return {
    subscribe: local.subscribe,
    async publish(intentId: string) {
      // This process's subscribers hear at once (read-your-writes for caches keyed on these events);
      // the NOTIFY reaches them again, and every other process, a moment later.
      local.deliver(intentId);
      await deps.pool.query('SELECT pg_notify($1, $2)', [INTENT_CHANNEL, intentId]);
    },
    async close() {
      closed = true;
      await local.close();
      await client?.end();
    },
  };
}
