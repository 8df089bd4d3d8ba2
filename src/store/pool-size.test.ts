/**
 * The PostgreSQL pool's size (`databasePoolSize`, createStore's `poolSize`): a process never holds more
 * statement connections than that, however many statements it runs at once, beside its one LISTEN
 * connection and at most TRANSACTION_POOL_MAX_CONNECTIONS for transactions (the migrations' one, idle).
 * The connections are filled one at a time (statement-connections.ts): a statement held up by a row lock
 * does not hold up the ones after it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, rawQuery, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { createStore } from './create-store.ts';
import { LISTENER_APPLICATION_NAME } from './intent-events-postgres.ts';
import { STATEMENTS_APPLICATION_NAME } from './open-postgres.ts';
import { TRANSACTION_POOL_MAX_CONNECTIONS, TRANSACTIONS_APPLICATION_NAME } from './pg-transaction-pool.ts';
import { SPILL_AFTER_MS } from './statement-connections.ts';
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

async function connections(): Promise<Map<string, number>> {
  const name = new URL(database.options.databaseUrl!).pathname.slice(1);
  const rows = await rawQuery<{ app: string; n: string }>(
    database,
    `select application_name as app, count(*) as n from pg_stat_activity
      where datname = '${name}' and pid <> pg_backend_pid() group by 1`,
  );
  return new Map(rows.map((row) => [row.app, Number(row.n)]));
}

it('holds at most poolSize statement connections, plus the LISTEN one, with many statements at once', async () => {
  const statements = Array.from({ length: 200 }, (_, i) => store.taskLeases.get(`task-${i}`));
  await Promise.all(statements);
  const open = await connections();
  expect(open.get(STATEMENTS_APPLICATION_NAME)).toBeGreaterThanOrEqual(1);
  expect(open.get(STATEMENTS_APPLICATION_NAME)).toBeLessThanOrEqual(POOL_SIZE);
  expect(open.get(LISTENER_APPLICATION_NAME)).toBe(1);
  expect(open.get(TRANSACTIONS_APPLICATION_NAME) ?? 0).toBeLessThanOrEqual(TRANSACTION_POOL_MAX_CONNECTIONS);
  expect([...open.keys()].sort()).toEqual(
    [STATEMENTS_APPLICATION_NAME, LISTENER_APPLICATION_NAME, TRANSACTIONS_APPLICATION_NAME]
      .filter((app) => open.has(app))
      .sort(),
  );
});

it('runs the next statements on another connection while one waits on a row lock', async () => {
  const task = 'locked-task';
  expect(await store.taskLeases.acquire({ task, owner: 'first', leaseMs: 60_000 })).toBe(true);
  const locker = new pg.Client({ connectionString: database.options.databaseUrl });
  await locker.connect();
  try {
    await locker.query('begin');
    await locker.query(`select * from task_leases where task = '${task}' for update`);
    // The renewal's upsert waits on the row until the locker commits.
    const renewal = store.taskLeases.acquire({ task, owner: 'first', leaseMs: 60_000 });
    let renewed = false;
    void renewal.then(() => {
      renewed = true;
    });
    await sleep(SPILL_AFTER_MS * 2);
    // Without spilling this read would queue behind the renewal on its connection and wait for the commit.
    const read = await Promise.race([
      store.taskLeases.get(task),
      sleep(5_000).then(() => 'held up' as const),
    ]);
    expect(read).not.toBe('held up');
    expect(read).toMatchObject({ task, owner: 'first' });
    expect(renewed).toBe(false);
    expect((await connections()).get(STATEMENTS_APPLICATION_NAME)).toBeGreaterThanOrEqual(2);
    await locker.query('commit');
    expect(await renewal).toBe(true);
  } finally {
    await locker.end();
  }
});

it('leaves no connection open once closed, even a store that only migrated and listened', async () => {
  const idle = await createStore({ ...database.options, log: createSilentLogger() });
  // Its migrations ran on the transaction pool; no statement has been run.
  expect((await connections()).get(TRANSACTIONS_APPLICATION_NAME) ?? 0).toBeGreaterThanOrEqual(1);
  await store.close();
  await idle.close();
  // The server ends a backend a moment after its client has gone.
  const deadline = Date.now() + 2_000;
  let open = await connections();
  while (open.size > 0 && Date.now() < deadline) {
    await sleep(50);
    open = await connections();
  }
  expect(Object.fromEntries(open)).toEqual({});
});
