/**
 * The store a benchmark's server runs on: `--db sqlite|postgres|both` (both when DATABASE_URL is set), a
 * SQLite file in a fresh temporary folder or a fresh Postgres database (bench-database.ts), removed after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase } from './bench-database.ts';
import type { Target } from './server-messages.ts';

export type Db = 'sqlite' | 'postgres';

/** `--db`'s value (undefined when not given) as the stores to run on, in order. */
export function parseDbOption(value: string | undefined): Db[] {
  const db = value ?? (process.env.DATABASE_URL ? 'both' : 'sqlite');
  if (!['sqlite', 'postgres', 'both'].includes(db))
    throw new Error(`--db: sqlite, postgres or both, not ${db}`);
  return db === 'both' ? ['sqlite', 'postgres'] : [db as Db];
}

/** `name` tells the benchmark's leftovers apart (temporary folder, database name). */
export async function withTarget<T>(db: Db, name: string, use: (target: Target) => Promise<T>): Promise<T> {
  if (db === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), `switchyard-bench-${name}-`));
    try {
      return await use({ sqlitePath: join(dir, 'bench.sqlite') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const database = await createBenchDatabase(name);
  try {
    return await use({ databaseUrl: database.url });
  } finally {
    await database.drop();
  }
}
