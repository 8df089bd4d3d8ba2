/**
 * Intent change notifications across processes through Postgres LISTEN/NOTIFY. Each process holds
 * one dedicated listening connection (not one per waiter) and fans notifications out to its local
 * subscribers; publishing is a `pg_notify` on the store's connections.
 *
 * Every payload this process sends starts with its sender tag (`<tag>/`), so it can drop its own echoes:
 * its subscribers were told when the write returned, and the echo would wake each of them again.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../internal/logger.ts';
import { createLocalIntentEvents } from './intent-events-local.ts';
import type { IntentEvents, IntentInserted } from './types.ts';

export const INTENT_CHANNEL = 'switchyard_intent_changed';
/** The listening connection's `application_name` in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'switchyard listener';
/** Inserts, payload `<projectId>:<ownerAddress>` (caches of history pages listen to it). */
export const INSERT_CHANNEL = 'switchyard_intent_inserted';
/** Wait this long before re-opening a dropped listening connection. */
const RECONNECT_DELAY_MS = 1_000;
/** Random bytes in a process's sender tag: 48 bits, so two processes on one database never share one. */
const SENDER_TAG_BYTES = 6;
const TAG_END = '/';

export interface PgIntentEventsDeps {
  /** Sends `pg_notify(channel, payload)` on the store's connections. */
  notify: (channel: string, payload: string) => Promise<void>;
  /** Opens the dedicated listening connection (a fresh pg.Client, not a pooled one). */
  connect: () => Promise<pg.Client>;
  log: Logger;
}

/**
 * What a write needs to send its own notifications (`pg_notify` in its statement, sent when it commits:
 * no round trip of its own). `deliver`/`deliverInsert` then tell this process's subscribers at once, as
 * `publish`/`publishInsert` do; a listener's failure is logged, not thrown (the write stands).
 */
export interface WriteNotifications {
  readonly changeChannel: string;
  readonly insertChannel: string;
  /** This process's prefix for every payload it sends (`<tag>/`): a statement writes it before the intent id. */
  readonly senderPrefix: string;
  /** An intent id as this process's change payload. */
  changePayload(intentId: string): string;
  insertPayload(insert: IntentInserted): string;
  deliver(intentId: string): void;
  deliverInsert(insert: IntentInserted): void;
}

export interface PgIntentEvents extends IntentEvents {
  readonly inWrite: WriteNotifications;
}

export async function createPgIntentEvents(deps: PgIntentEventsDeps): Promise<PgIntentEvents> {
  const local = createLocalIntentEvents();
  const senderPrefix = `${randomBytes(SENDER_TAG_BYTES).toString('hex')}${TAG_END}`;
  const changePayload = (intentId: string) => senderPrefix + intentId;
  const insertPayload = (insert: IntentInserted) => senderPrefix + insertBody(insert);
  let closed = false;
  let client: pg.Client | undefined;

  let lost = false;
  /** A (re)connection in progress: close() waits for it, so no listening connection outlives the store. */
  let connecting: Promise<void> | undefined;
  const listen = async (): Promise<void> => {
    const next = await deps.connect();
    next.on('notification', (message) => {
      // Sent by this process: its subscribers were told when the write returned (publish,
      // inWrite.deliver). The echo would wake each of them again, and each waiter re-read for nothing.
      if (!message.payload || message.payload.startsWith(senderPrefix)) return;
      const body = message.payload.slice(message.payload.indexOf(TAG_END) + 1);
      if (message.channel === INTENT_CHANNEL && body) local.deliver(body);
      if (message.channel === INSERT_CHANNEL) {
        const insert = parseInsert(body);
        if (insert) local.deliverInsert(insert);
        else deps.log.warn('malformed insert notification', { payload: message.payload });
      }
    });
    // pg may report one lost connection more than once (the server's message, then the socket's end).
    let ended = false;
    next.on('error', (error) => {
      if (ended) return;
      ended = true;
      next.end().catch(() => {});
      // Lost during LISTEN below: that rejects, and reconnect() schedules the next attempt itself.
      if (client !== next) return;
      deps.log.warn('intent listener connection lost', { error });
      client = undefined;
      // From now until LISTEN is back, other processes' changes go unheard.
      lost = true;
      local.deliverMissed();
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    });
    try {
      await next.query(`LISTEN ${INTENT_CHANNEL}`);
      await next.query(`LISTEN ${INSERT_CHANNEL}`);
    } catch (error) {
      // A connection that cannot listen is closed, not left open beside the next attempt's.
      ended = true;
      next.end().catch(() => {});
      throw error;
    }
    client = next;
    if (lost) {
      // Whatever was kept while nothing could be heard goes too.
      lost = false;
      local.deliverMissed();
    }
  };
  const reconnect = async () => {
    if (closed) return;
    try {
      connecting = listen();
      await connecting;
    } catch (error) {
      deps.log.warn('intent listener reconnect failed', { error });
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    }
  };

  const deliverSafely = (deliver: () => void, context: Record<string, unknown>) => {
    try {
      deliver();
    } catch (error) {
      deps.log.warn('intent notification listener failed', { ...context, error });
    }
  };

  await listen();
  return {
    subscribe: local.subscribe,
    subscribeAll: local.subscribeAll,
    async publish(intentId: string) {
      // This process's subscribers hear at once (read-your-writes for caches keyed on these events);
      // the NOTIFY reaches every other process a moment later (its echo here is dropped).
      local.deliver(intentId);
      await deps.notify(INTENT_CHANNEL, changePayload(intentId));
    },
    subscribeInserts: local.subscribeInserts,
    subscribeMissed: local.subscribeMissed,
    async publishInsert(insert: IntentInserted) {
      // As for publish: this process's caches drop their pages before the insert call returns.
      local.deliverInsert(insert);
      await deps.notify(INSERT_CHANNEL, insertPayload(insert));
    },
    inWrite: {
      changeChannel: INTENT_CHANNEL,
      insertChannel: INSERT_CHANNEL,
      senderPrefix,
      changePayload,
      insertPayload,
      deliver: (intentId) => deliverSafely(() => local.deliver(intentId), { intentId }),
      deliverInsert: (insert) => deliverSafely(() => local.deliverInsert(insert), { ...insert }),
    },
    async close() {
      closed = true;
      await local.close();
      await connecting?.catch(() => {});
      await client?.end();
    },
  };
}

function insertBody(insert: IntentInserted): string {
  return `${insert.projectId}:${insert.ownerAddress}`;
}

function parseInsert(payload: string): IntentInserted | undefined {
  const at = payload.indexOf(':');
  const projectId = Number(payload.slice(0, at));
  if (at < 1 || !Number.isSafeInteger(projectId)) return undefined;
  return { projectId, ownerAddress: payload.slice(at + 1) };
}
