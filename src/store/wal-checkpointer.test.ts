import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, createSilentLogger } from '../internal/logger.ts';
import { openSqlite } from './open-sqlite.ts';
import type { Database } from './schema.ts';

/** Rows of 4 kB: 2,000 of them are ~8 MB, twice what SQLite's own 1,000-page checkpoint would let the WAL hold. */
const ROWS = 2_000;
const ROW_BYTES = 4_096;
/** A WAL frame: a 24-byte header and a 4 kB page. */
const WAL_FRAME_BYTES = 24 + 4_096;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sw-wal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function autocheckpoint(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  return rows[0]!.wal_autocheckpoint;
}

/** `gaps`: yield to the event loop between inserts, as a server does between requests. */
async function writeRows(db: Kysely<Database>, gaps = false): Promise<void> {
  await sql`create table if not exists filler (body text not null)`.execute(db);
  for (let i = 0; i < ROWS; i++) {
    await sql`insert into filler (body) values (${'x'.repeat(ROW_BYTES)})`.execute(db);
    if (gaps) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WAL checkpoints off the event loop', () => {
  it('the server’s connection never checkpoints; the worker copies the WAL into the database file', async () => {
    const path = join(dir, 'store.sqlite');
    const db = openSqlite(path, { log: createSilentLogger(), checkpointer: { everyMs: 20 } });
    try {
      expect(await autocheckpoint(db)).toBe(0);
      await writeRows(db);
      // Only a checkpoint moves pages from the WAL into the database file, and this connection makes none.
      await eventually(() => statSync(path).size > ROWS * ROW_BYTES, 'the database file holds every row');
      const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(db);
      expect(rows[0]!.n).toBe(ROWS);
    } finally {
      await db.destroy();
    }
    // The worker closed first, so this connection was the last one and SQLite removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('under steady writes the worker restarts the WAL once it holds more than restartFrames', async () => {
    const path = join(dir, 'store.sqlite');
    const restartFrames = 256;
    const db = openSqlite(path, { log: createSilentLogger(), checkpointer: { everyMs: 10, restartFrames } });
    try {
      // Once the worker has checkpointed the new table, it is running.
      await sql`create table filler (body text not null)`.execute(db);
      await eventually(() => statSync(path).size > 0, 'a first checkpoint');
      await writeRows(db, true);
      // SQLite reuses the WAL file from its start after a restart without shrinking it: its size is the
      // most the WAL ever held. The rows take ~6,000 frames (a row spills into an overflow page), all in
      // the WAL when nothing restarts it.
      const walFrames = statSync(`${path}-wal`).size / WAL_FRAME_BYTES;
      expect(walFrames).toBeLessThan(ROWS);
    } finally {
      await db.destroy();
    }
  });

  it('a worker that cannot start hands checkpointing back to the connection, and says so', async () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'json', write: (line) => lines.push(line) });
    const path = join(dir, 'store.sqlite');
    const db = openSqlite(path, { log, checkpointer: { driverPath: join(dir, 'no-such-driver.js') } });
    try {
      await eventually(() => lines.length > 0, 'a warning');
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 'warn',
        msg: 'WAL checkpoint worker failed: the connection checkpoints itself again',
        path,
      });
      expect(await autocheckpoint(db)).toBe(1000);
    } finally {
      await db.destroy();
    }
  });

  it('an in-memory database has no WAL and no worker', async () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'json', write: (line) => lines.push(line) });
    const db = openSqlite(':memory:', { log });
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(rows[0]!.journal_mode).toBe('memory');
    expect(await autocheckpoint(db)).toBe(1000);
    await db.destroy();
    expect(lines).toEqual([]);
  });
});
