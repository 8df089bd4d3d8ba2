/**
 * The engine's journal of intent steps, used as a work queue: queue semantics live in SQL. A step is
 * leased to one worker at a time; a crashed worker's lease expires and another worker takes over.
 */
import type { Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import { lower, stepFromRow } from './rows.ts';
import type { Database } from './schema.ts';
import type { StepsRepo } from './types.ts';

export function createStepsRepo(ctx: StoreContext): StepsRepo {
  const { db, capabilities } = ctx;
  return {
    async enqueue({ intentId, step, runAt }) {
      const id = lower(intentId);
      await insertPending(db, id, [step], runAt?.getTime() ?? ctx.now().getTime());
      const row = await db
        .selectFrom('intent_steps')
        .selectAll()
        .where('intent_id', '=', id)
        .where('step', '=', step)
        .executeTakeFirstOrThrow();
      return stepFromRow(row);
    },

    async leaseDue({ owner, limit, leaseMs, now: at }) {
      const now = (at ?? ctx.now()).getTime();
      // Postgres: SKIP LOCKED lets concurrent workers pass over each other's rows instead of
      // leasing the same ones. SQLite: one writer at a time makes the UPDATE atomic on its own.
      const due = db
        .selectFrom('intent_steps')
        .select('id')
        .where('state', 'in', ['pending', 'running'])
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .$if(capabilities.supportsSkipLocked, (qb) => qb.forUpdate().skipLocked());
      const rows = await db
        .updateTable('intent_steps')
        .set((eb) => ({
          state: 'running',
          lease_owner: owner,
          lease_until: now + leaseMs,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
        }))
        .where('id', 'in', due)
        .returningAll()
        .execute();
      return rows
        .map(stepFromRow)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
    },

    async renew({ ids, owner, leaseMs, now: at }) {
      if (ids.length === 0) return 0;
      const now = (at ?? ctx.now()).getTime();
      const result = await db
        .updateTable('intent_steps')
        .set({ lease_until: now + leaseMs, updated_at: now })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async complete({ id, owner, enqueue }) {
      // The next steps and the completion commit together: a crash between them would leave a done
      // step whose successors were never journaled (or half of them).
      return db.transaction().execute(async (trx) => {
        const now = ctx.now().getTime();
        if (enqueue && enqueue.steps.length > 0)
          await insertPending(trx, lower(enqueue.intentId), enqueue.steps, now);
        const result = await trx
          .updateTable('intent_steps')
          .set({ state: 'done', lease_owner: null, lease_until: null, updated_at: now })
          .where('id', '=', id)
          .where('lease_owner', '=', owner)
          .where('state', '=', 'running')
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      });
    },

    async fail({ id, owner, error, retryAt }) {
      const result = await db
        .updateTable('intent_steps')
        .set({
          state: retryAt ? 'pending' : 'failed',
          last_error: error,
          lease_owner: null,
          lease_until: null,
          ...(retryAt && { next_attempt_at: retryAt.getTime() }),
          updated_at: ctx.now().getTime(),
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async list(intentId) {
      const rows = await db
        .selectFrom('intent_steps')
        .selectAll()
        .where('intent_id', '=', lower(intentId))
        .orderBy('id')
        .execute();
      return rows.map(stepFromRow);
    },
  };
}

/** Journals pending steps for an intent at `runAt` (ms); steps already journaled are left as they are. */
async function insertPending(
  db: Kysely<Database>,
  intentId: string,
  steps: string[],
  runAt: number,
): Promise<void> {
  await db
    .insertInto('intent_steps')
    .values(
      steps.map((step) => ({
        intent_id: intentId,
        step,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: runAt,
        last_error: null,
        lease_owner: null,
        lease_until: null,
        created_at: runAt,
        updated_at: runAt,
      })),
    )
    .onConflict((oc) => oc.columns(['intent_id', 'step']).doNothing())
    .execute();
}
