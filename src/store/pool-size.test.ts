/**
 * The PostgreSQL pool's size (`databasePoolSize`, createStore's `poolSize`): a process never holds more
 * statement connections than that, however many statements it runs at once, beside its one LISTEN
 * connection and at most TRANSACTION_POOL_MAX_CONNECTIONS for transactions (the migrations' one, idle).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, rawQuery, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { createStore } from './create-store.ts';
import { LISTENER_APPLICATION_NAME } from './intent-events-postgres.ts';
import { STATEMENTS_APPLICATION_NAME } from './open-postgres.ts';
import { TRANSACTION_POOL_MAX_CONNECTIONS, TRANSACTIONS_APPLICATION_NAME } from './pg-transaction-pool.ts';
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

it('holds at most poolSize statement connections, plus the LISTEN one, with many statements at once', async () => {
  const name = new URL(database.options.databaseUrl!).pathname.slice(1);
  const connections = async () =>
    new Map(
      (
        await rawQuery<{ app: string; n: string }>(
          database,
          `select application_name as app, count(*) as n from pg_stat_activity
            where datname = '${name}' and pid <> pg_backend_pid() group by 1`,
        )
      ).map((row) => [row.app, Number(row.n)]),
    );
  const statements = Array.from({ length: 20 }, (_, i) => store.taskLeases.get(`task-${i}`));
  await Promise.all(statements);
  const open = await connections();
  expect(open.get(STATEMENTS_APPLICATION_NAME)).toBe(POOL_SIZE);
  expect(open.get(LISTENER_APPLICATION_NAME)).toBe(1);
  expect(open.get(TRANSACTIONS_APPLICATION_NAME) ?? 0).toBeLessThanOrEqual(TRANSACTION_POOL_MAX_CONNECTIONS);
  expect([...open.keys()].sort()).toEqual(
    [STATEMENTS_APPLICATION_NAME, LISTENER_APPLICATION_NAME, TRANSACTIONS_APPLICATION_NAME]
      .filter((app) => open.has(app))
      .sort(),
  );
});
