/**
 * Postgres keeps a prepared statement's generic plan only when its estimated cost is not above the average
 * of its first five custom plans (plus their planning); otherwise it plans the statement again at every
 * execution (docs/benchmarks.md, "Planning"). These run the engine's statements eight times on one
 * connection and read `pg_prepared_statements` there: after the fifth execution the generic plan is used.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, rawExecute, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { completeStepPostgres, enqueueStepsPostgres } from './complete-step-postgres.ts';
import { createStore } from './create-store.ts';
import { openPostgres } from './open-postgres.ts';
import { createAggregatedReceiptReads } from './receipt-reads-postgres.ts';
import type { Database } from './schema.ts';
import { newIntent } from './testing.ts';
import type { Store } from './types.ts';

const EXECUTIONS = 8;
const MORE_INTENTS = 2000;

// Postgres only: SQLite prepares no plans of this kind.
let database: TestDatabase;
let store: Store;
let db: Kysely<Database>;
let projectId: number;
beforeAll(async () => {
  database = await createTestDatabase('postgres');
  store = await createStore({ ...database.options, log: createSilentLogger() });
  projectId = (await store.projects.create('plans')).id;
  // Intents enough that each probe of their index has its cost, and statistics as autovacuum leaves them:
  // on a few unanalyzed rows every plan is cheap, and the generic one is kept whatever the statement.
  const model = (await store.intents.insert(newIntent(projectId))).intentId;
  await rawExecute(
    database,
    `insert into intents select (jsonb_populate_record(null::intents, to_jsonb(i) || jsonb_build_object(
       'id', nextval('intents_id_seq'), 'intent_id', i.intent_id || '-' || n))).*
     from intents as i, generate_series(1, ${MORE_INTENTS}) as n where i.intent_id = '${model}';
     analyze intents; analyze intent_steps`,
  );
  // One connection: a prepared statement and its plans belong to the session that prepared it.
  db = openPostgres({ databaseUrl: database.options.databaseUrl!, log: createSilentLogger(), max: 1 }).db;
});
afterAll(async () => {
  await db?.destroy();
  await store?.close();
  await database?.drop();
});

/** The plans of the `count` prepared statements whose text matches `text`, generic and custom. */
const plansOf = async (text: RegExp, count = 1) => {
  const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
select statement, generic_plans::int, custom_plans::int from pg_prepared_statements`.execute(db);
  const found = rows.filter((r) => text.test(r.statement));
  expect(found).toHaveLength(count);
  return found.map((r) => ({ generic: r.generic_plans, custom: r.custom_plans }));
};

it('a completion that journals and leases successors keeps its generic plan (Postgres)', async () => {
  for (let n = 0; n < EXECUTIONS; n++) {
    const intentId = (await store.intents.insert(newIntent(projectId))).intentId;
    const [step] = await enqueueStepsPostgres(
      db,
      { intentId, steps: [{ step: 'origin' }], lease: { owner: 'w1', leaseMs: 60_000 } },
      Date.now(),
    );
    const { done, leased } = await completeStepPostgres(
      db,
      {
        id: step!.id,
        owner: 'w1',
        enqueue: {
          intentId,
          // One successor or two, due now and later: the arrays' length changes, the statement does not.
          steps: n % 2 ? ['fill'] : ['fill', 'destination'],
          later: [{ step: 'refund', runAt: new Date(Date.now() + 600_000) }],
          leaseMs: 60_000,
        },
      },
      Date.now(),
      undefined,
    );
    expect(done).toBe(true);
    expect(leased[0]?.intent?.intentId).toBe(intentId);
  }
  // The enqueue's statement (its steps leased with their intent) and the completion's.
  for (const text of [/^with "inserted" as/, /^with "done" as/]) {
    const [plans] = await plansOf(text);
    expect(plans.generic + plans.custom).toBe(EXECUTIONS);
    expect(plans.generic).toBeGreaterThan(0);
  }
});

it('a receipt read of several intents keeps its generic plan (Postgres)', async () => {
  const reads = createAggregatedReceiptReads(db);
  const ids: string[] = [];
  for (let n = 0; n < 3; n++) ids.push((await store.intents.insert(newIntent(projectId))).intentId);
  for (let n = 0; n < EXECUTIONS; n++) {
    // Reads asked for in one turn go out as one statement: two intents or three, the statement is the same.
    const wanted = n % 2 ? ids : ids.slice(0, 2);
    const got = await Promise.all(wanted.map((id) => reads(id, projectId, false)));
    expect(got.map((read) => read.row?.intent_id)).toEqual(wanted);
  }
  const [plans] = await plansOf(/json_agg.*any\(/s);
  expect(plans.generic + plans.custom).toBe(EXECUTIONS);
  expect(plans.generic).toBeGreaterThan(0);
});

it('an enqueue and a completion that carry a send’s journal mark keep their generic plans (Postgres)', async () => {
  for (let n = 0; n < EXECUTIONS; n++) {
    const intentId = (await store.intents.insert(newIntent(projectId))).intentId;
    const hash = `0x${n.toString(16).padStart(64, '0')}`;
    const [step] = await enqueueStepsPostgres(
      db,
      {
        intentId,
        steps: [{ step: 'destination' }],
        lease: { owner: 'w1', leaseMs: 60_000 },
        journalMark: { stage: 'broadcast', hash },
      },
      Date.now(),
    );
    const { done } = await completeStepPostgres(
      db,
      {
        id: step!.id,
        owner: 'w1',
        journalMark: { stage: 'mined', hash, status: 'mined', block: 7, index: 0 },
        enqueue: { intentId, steps: n % 2 ? ['settle'] : ['settle', 'refund'], leaseMs: 60_000 },
      },
      Date.now(),
      undefined,
    );
    expect(done).toBe(true);
  }
  // The enqueue's statement and the completion's, each with the mark first.
  for (const plans of await plansOf(/^with "step_marked"/, 2)) {
    expect(plans.generic + plans.custom).toBe(EXECUTIONS);
    expect(plans.generic).toBeGreaterThan(0);
  }
});
