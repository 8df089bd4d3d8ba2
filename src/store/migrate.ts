/** Brings a database up to the latest migration at start-up. */
import { type Kysely, Migrator } from 'kysely';
import type { Logger } from '../internal/logger.ts';
import type { DialectProfile } from './capabilities.ts';
import { MigrationError } from './errors.ts';
import { migrationProvider } from './migrations/index.ts';

export async function migrateToLatest(
  db: Kysely<unknown>,
  profile: DialectProfile,
  log: Logger,
): Promise<void> {
  // Kysely takes a lock around the run (an advisory lock on Postgres), so several processes
  // starting together apply each migration once.
  const migrator = new Migrator({ db, provider: migrationProvider(profile) });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') log.info('database migrated', { migration: result.migrationName });
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new MigrationError(failed, error);
  }
}
