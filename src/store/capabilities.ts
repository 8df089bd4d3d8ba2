/**
 * The one place where the two databases differ. Call sites ask a flag or use a column type from
 * here; nothing else in the store checks which database it runs on.
 */
import { type RawBuilder, sql } from 'kysely';
import type { StoreCapabilities } from './types.ts';

/** Column types the migrations use, per dialect. */
export interface ColumnTypes {
  /** An auto-incrementing integer primary key. */
  readonly serial: 'serial' | 'integer';
  /** Token amounts up to 2^256 − 1, exact. */
  readonly amount: RawBuilder<unknown> | 'text';
  /** Milliseconds since the epoch. */
  readonly millis: 'bigint' | 'integer';
}

export interface DialectProfile {
  readonly capabilities: StoreCapabilities;
  readonly columns: ColumnTypes;
  /**
   * How a migration writes a trigger's body: a PL/pgSQL function the trigger executes (Postgres), or the
   * statements inside the trigger itself (SQLite).
   */
  readonly triggers: 'function' | 'inline';
  /**
   * Appended to a CREATE TABLE whose rows are read in primary-key order: SQLite stores such a table in
   * its key's b-tree (`without rowid`: one b-tree instead of a rowid table plus a key index); Postgres
   * tables are heaps either way.
   */
  readonly keyOrderedTable: RawBuilder<unknown> | undefined;
}

export const SQLITE_PROFILE: DialectProfile = {
  capabilities: {
    dialect: 'sqlite',
    supportsSkipLocked: false,
    supportsListenNotify: false,
    supportsConcurrentWriters: false,
    supportsDataModifyingWith: false,
    // SQLite has json_group_array, but its reads are calls in the process: two cost no round trip.
    supportsJsonAggregation: false,
    // The runner's read of the intent after a lease is a call in the process: nothing to fold.
    supportsLeaseWithIntent: false,
    // A read is a call in the process: batching would only wait for the loop turn's end.
    batchesReads: false,
    fencesSubqueries: false,
  },
  columns: { serial: 'integer', amount: 'text', millis: 'integer' },
  triggers: 'inline',
  keyOrderedTable: sql`without rowid`,
};

export const POSTGRES_PROFILE: DialectProfile = {
  capabilities: {
    dialect: 'postgres',
    supportsSkipLocked: true,
    supportsListenNotify: true,
    supportsConcurrentWriters: true,
    supportsDataModifyingWith: true,
    supportsJsonAggregation: true,
    supportsLeaseWithIntent: true,
    batchesReads: true,
    fencesSubqueries: true,
  },
  columns: { serial: 'serial', amount: sql`numeric(78,0)`, millis: 'bigint' },
  triggers: 'function',
  keyOrderedTable: undefined,
};
