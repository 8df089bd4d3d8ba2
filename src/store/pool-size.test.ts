/**
 * The PostgreSQL pool's size (`databasePoolSize`, createStore's `poolSize`): a process never holds more
 * connections than that, however many statements it runs at once, plus its one LISTEN connection.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, rawQuery, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { createStore } from './create-store.ts';
import type { Store } from './types.ts';

const POOL_SIZE = 3;

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase('postgres');
  store = await createStore({ ...database.options, poolSize: POOL_SIZE, log: createSilentLogger() });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

it('holds at most poolSize connections, plus the LISTEN one, with many statements at once', async () => {
  const name = new URL(database.options.databaseUrl!).pathname.slice(1);
  const connections = async () =>
    Number(
      (
        await rawQuery<{ n: string }>(
          database,
          `select count(*) as n from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
        )
      )[0]!.n,
    );
  const statements = Array.from({ length: 20 }, (_, i) => store.taskLeases.get(`task-${i}`));
  await Promise.all(statements);
  expect(await connections()).toBe(POOL_SIZE + 1);
});
