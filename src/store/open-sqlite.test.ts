/**
 * The SQLite connection under another process's write lock (the CLI beside a running server): past the
 * busy timeout a statement throws DatabaseUnavailableError, which the engine retries as an outage and the
 * API answers 503 (not 500), and the same statement succeeds once the lock is gone. Other SQLite errors pass
 * through unchanged: callers read their codes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRetryable } from '../engine/is-retryable.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { DatabaseUnavailableError } from './errors.ts';
import { openSqlite } from './open-sqlite.ts';
import type { Database as Schema } from './schema.ts';

/** Short, so the test waits little for the lock it is refused. */
const BUSY_TIMEOUT_MS = 50;

let dir: string;
let db: Kysely<Schema>;
let other: Database.Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sw-sqlite-lock-'));
  const path = join(dir, 'store.sqlite');
  db = openSqlite(path, { log: createSilentLogger(), busyTimeoutMs: BUSY_TIMEOUT_MS });
  await sql`create table notes (id integer primary key, body text not null unique)`.execute(db);
  other = new Database(path);
});
afterEach(async () => {
  if (other.inTransaction) other.exec('rollback');
  other.close();
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

const count = async () => (await sql<{ n: number }>`select count(*) as n from notes`.execute(db)).rows[0]!.n;

describe('the SQLite connection under another connection’s write lock', () => {
  it('a write past the busy timeout is DatabaseUnavailableError (retryable); once the lock is gone it succeeds', async () => {
    other.exec('begin immediate');
    const refused = await sql`insert into notes (body) values ('a')`.execute(db).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseUnavailableError);
    expect((refused as Error).message).toMatch(/the database is unavailable: database is locked/);
    expect(((refused as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(isRetryable(refused)).toBe(true);
    // Readers are not blocked in WAL mode.
    expect(await count()).toBe(0);
    other.exec('commit');
    await sql`insert into notes (body) values ('a')`.execute(db);
    expect(await count()).toBe(1);
  });

  it('a transaction refused its BEGIN IMMEDIATE writes nothing, and the next one runs', async () => {
    other.exec('begin immediate');
    const refused = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into notes (body) values ('b')`.execute(trx);
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseUnavailableError);
    other.exec('rollback');
    await db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('b')`.execute(trx);
      await sql`insert into notes (body) values ('c')`.execute(trx);
    });
    expect(await count()).toBe(2);
  });

  it('a constraint error is passed through as SQLite’s own, not as an outage', async () => {
    await sql`insert into notes (body) values ('d')`.execute(db);
    const duplicate = await sql`insert into notes (body) values ('d')`.execute(db).catch((e: unknown) => e);
    expect(duplicate).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((duplicate as { code?: string }).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
  });
});
