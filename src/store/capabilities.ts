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
}

export const SQLITE_PROFILE: DialectProfile = {
  capabilities: {
    dialect: 'sqlite',
    supportsSkipLocked: false,
    supportsListenNotify: false,
    supportsConcurrentWriters: false,
  },
  columns: { serial: 'integer', amount: 'text', millis: 'integer' },
};

export const POSTGRES_PROFILE: DialectProfile = {
  capabilities: {
    dialect: 'postgres',
    supportsSkipLocked: true,
    supportsListenNotify: true,
    supportsConcurrentWriters: true,
  },
  columns: { serial: 'serial', amount: sql`numeric(78,0)`, millis: 'bigint' },
};
