/**
 * Where a database stands against this version's migrations, read without changing anything (no table is
 * created, nothing is migrated): for `switchyard doctor` and the checks `serve` runs at start. A SQLite file
 * that does not exist yet is a fresh database, not an error.
 */
import { existsSync } from 'node:fs';
import { SQLITE_PROFILE } from './capabilities.ts';
import { migrationProvider } from './migrations/index.ts';

/** Kysely's default migration table, where migrateToLatest records each applied migration. */
const MIGRATION_TABLE = 'kysely_migration';
/** A database that has not answered in this long (ms) is reported as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface MigrationStatus {
  /** False for a SQLite file not created yet. */
  exists: boolean;
  applied: string[];
  /** This version's migrations the database has not run yet (serve runs them at start). */
  pending: string[];
  /** Migrations the database ran that this version does not know: a newer Switchyard used it. */
  unknown: string[];
}

export async function knownMigrations(): Promise<string[]> {
  // The names do not depend on the dialect; the profile only shapes the migrations' bodies.
  return Object.keys(await migrationProvider(SQLITE_PROFILE).getMigrations()).sort();
}

export async function readMigrationStatus(location: {
  databaseUrl?: string | undefined;
  sqlitePath: string;
}): Promise<MigrationStatus> {
  const applied = location.databaseUrl
    ? await appliedOnPostgres(location.databaseUrl)
    : existsSync(location.sqlitePath)
      ? await appliedOnSqlite(location.sqlitePath)
      : undefined;
  const known = await knownMigrations();
  const ran = applied ?? [];
  return {
    exists: applied !== undefined,
    applied: ran,
    pending: known.filter((name) => !ran.includes(name)),
    unknown: ran.filter((name) => !known.includes(name)),
  };
}

async function appliedOnPostgres(databaseUrl: string): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  await client.connect();
  try {
    const table = await client.query<{ found: string | null }>('select to_regclass($1)::text as found', [
      MIGRATION_TABLE,
    ]);
    if (!table.rows[0]?.found) return [];
    const rows = await client.query<{ name: string }>(`select name from ${MIGRATION_TABLE} order by name`);
    return rows.rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function appliedOnSqlite(path: string): Promise<string[]> {
  // Loaded here only: a Postgres deployment never needs the SQLite driver.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: CONNECT_TIMEOUT_MS });
  try {
    const table = db
      .prepare("select name from sqlite_master where type = 'table' and name = ?")
      .get(MIGRATION_TABLE);
    if (!table) return [];
    return (db.prepare(`select name from ${MIGRATION_TABLE} order by name`).all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}
