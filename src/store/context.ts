/** What every repository of the store is built from. */
import type { Kysely } from 'kysely';
import type { WriteNotifications } from './intent-events-postgres.ts';
import type { Database } from './schema.ts';
import type { IntentEvents, IntentInserted, StoreCapabilities } from './types.ts';

export interface StoreContext {
  readonly db: Kysely<Database>;
  readonly capabilities: StoreCapabilities;
  readonly events: IntentEvents;
  /** The clock; tests may pin it. */
  readonly now: () => Date;
  /**
   * Tells waiters an intent changed, after the write committed. A failed notification is logged,
   * not thrown: the write stands, and waiters also wake on their own time-out.
   */
  readonly notify: (intentId: string) => Promise<void>;
  /** Tells caches of history pages a new intent was stored, after the insert; logged, not thrown, on failure. */
  readonly notifyInsert: (insert: IntentInserted) => Promise<void>;
  /** Postgres only: lets a write's own statement send its notifications instead (the quote's insert). */
  readonly notifyInWrite?: WriteNotifications;
}
