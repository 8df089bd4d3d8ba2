import { expect, it } from 'vitest';
import { describeEachDialect, rawExecute } from '../../test/harness/database.ts';
import { knownMigrations, readMigrationStatus } from './migration-status.ts';

describeEachDialect('migration status (read without migrating)', ({ openStore, database, dialect }) => {
  const location = () => ({
    databaseUrl: database().options.databaseUrl,
    sqlitePath: database().options.sqlitePath ?? '/nonexistent/switchyard.sqlite',
  });

  it('sees a fresh database as missing every migration, and creates nothing', async () => {
    const known = await knownMigrations();
    expect(known.length).toBeGreaterThan(3);
    const status = await readMigrationStatus(location());
    // A SQLite file not created yet does not exist; a fresh Postgres database does, empty.
    expect(status).toEqual({ exists: dialect === 'postgres', applied: [], pending: known, unknown: [] });
    expect(await readMigrationStatus(location())).toEqual(status);
  });

  it('sees a migrated database as up to date, and one a newer version migrated as ahead', async () => {
    await openStore();
    const known = await knownMigrations();
    expect(await readMigrationStatus(location())).toEqual({
      exists: true,
      applied: known,
      pending: [],
      unknown: [],
    });
    await rawExecute(
      database(),
      `insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`,
    );
    await rawExecute(database(), `delete from kysely_migration where name = '${known[0]}'`);
    const status = await readMigrationStatus(location());
    expect(status.pending).toEqual([known[0]]);
    expect(status.unknown).toEqual(['9999_from_the_future']);
  });
});
