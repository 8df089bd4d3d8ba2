/** The database: reachable, and migrated to this version (or fresh, which serve migrates at start). */
import { join } from 'node:path';
import type { SwitchyardConfig } from '../../internal/config-types.ts';
import { readMigrationStatus } from '../../store/migration-status.ts';
import { SQLITE_FILE_NAME } from '../../store/store-location.ts';
import { shortReason } from '../connect-chain.ts';
import { type CheckResult, ok, problem } from './types.ts';

export async function checkDatabase(
  config: Pick<SwitchyardConfig, 'databaseUrl' | 'dataDir'>,
): Promise<CheckResult> {
  const sqlitePath = join(config.dataDir, SQLITE_FILE_NAME);
  const where = config.databaseUrl ? describePostgres(config.databaseUrl) : `SQLite ${sqlitePath}`;
  let status: Awaited<ReturnType<typeof readMigrationStatus>>;
  try {
    status = await readMigrationStatus({ databaseUrl: config.databaseUrl, sqlitePath });
  } catch (error) {
    const fix = config.databaseUrl
      ? 'check DATABASE_URL (host, port, user, password, database) and that Postgres accepts connections'
      : `check that ${sqlitePath} is a Switchyard database this user may read`;
    return problem('fail', 'database', `${where} cannot be read: ${shortReason(error)}`, fix);
  }
  if (!status.exists) {
    return ok(
      'database',
      `${where} does not exist yet: serve creates it and applies ${status.pending.length} migrations`,
    );
  }
  if (status.unknown.length > 0) {
    return problem(
      'fail',
      'database',
      `${where} has migrations this version does not know (${status.unknown.join(', ')}): a newer Switchyard used it`,
      'run the Switchyard version that migrated this database, or point DATABASE_URL at another one',
    );
  }
  if (status.pending.length > 0) {
    return problem(
      'warn',
      'database',
      `${where} is ${status.pending.length} migration(s) behind (${status.pending.join(', ')})`,
      'serve applies them at start; stop processes of the older version that use this database first',
    );
  }
  return ok('database', `${where} reachable, migrated (${status.applied.length} migrations)`);
}

/** A Postgres URL without its credentials. */
function describePostgres(url: string): string {
  if (!URL.canParse(url)) return 'Postgres (DATABASE_URL)';
  const parsed = new URL(url);
  return `Postgres ${parsed.host}${parsed.pathname}`;
}
