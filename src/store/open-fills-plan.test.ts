/**
 * CommitIntent's inventory check reads the open fills (solver-inventory.ts, openFills) on every cross-chain
 * commit. On tables autovacuum has not analyzed yet (a new database, or a server run with autovacuum off),
 * Postgres joined the check for a landed fill as an anti-join that scanned every landed transaction once per
 * open intent, matching them to it only afterwards: ~1.3 ms a commit after 300 intents in `bench:e2e --db
 * postgres`, and growing with every fill. With the subquery fenced (`OFFSET 0`,
 * StoreCapabilities.fencesSubqueries) each open intent is probed by the (intent_id, purpose, status) index.
 * Read with EXPLAIN on a new, never analyzed database (Postgres 15 on DATABASE_URL, 18 embedded).
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { createStore } from './create-store.ts';
import { openPostgres } from './open-postgres.ts';
import type { Database } from './schema.ts';
import { openFills } from './solver-inventory.ts';

const CHECK = {
  fillPurpose: 'solver-fill',
  chainId: 7770002,
  tokenAddress: '0x13dcc8dffc1cc88eb46f6da69357cd8e72fef717',
};

// Postgres only: the fence is a Postgres planner matter.
let database: TestDatabase;
let db: Kysely<Database>;
beforeAll(async () => {
  database = await createTestDatabase('postgres');
  // The store migrates the new database; nothing analyzes it.
  await (await createStore({ ...database.options, log: createSilentLogger() })).close();
  db = openPostgres({ databaseUrl: database.options.databaseUrl!, log: createSilentLogger(), max: 1 }).db;
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** The plan of the held read, one line per node. */
async function planOf(fenced: boolean): Promise<string> {
  const query = openFills(db, CHECK, fenced).select(
    sql<string>`coalesce(sum("i"."fill_amount"), 0)`.as('amount'),
  );
  const rows = await query.explain();
  return rows.map((row) => String(Object.values(row)[0])).join('\n');
}

/** The outer intent's id is an index condition of the landed-fill scan: one probe per open intent. */
const PROBED = /Index Cond: \(\(intent_id = i\.intent_id\)/;
/** The landed fills are scanned without the outer intent's id and matched to it afterwards. */
const JOINED_AFTER = /Join Filter: \(s\.intent_id = i\.intent_id\)/;

it('probes each open intent for a landed fill by its index, on tables never analyzed', async () => {
  const plan = await planOf(true);
  expect(plan).toMatch(PROBED);
  expect(plan).not.toMatch(JOINED_AFTER);
});

it('without the fence the same database scans the landed fills and matches them afterwards (the control)', async () => {
  // Postgres 15 scans the status index, Postgres 18 skip-scans the (intent, purpose, status) index: either
  // way without the intent's id, every landed fill once per open intent.
  const plan = await planOf(false);
  expect(plan).toMatch(JOINED_AFTER);
  expect(plan).not.toMatch(PROBED);
});
