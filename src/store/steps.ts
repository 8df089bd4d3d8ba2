/**
 * The engine's journal of intent steps, used as a work queue: queue semantics live in SQL. A step is
 * leased to one worker at a time; a crashed worker's lease expires and another worker takes over.
 *
 * The statements the step runner issues for every step (lease, complete, fail, enqueue) are compiled once
 * per store (compiled-query.ts): the runner leases many times per intent.
 */
import type { Kysely } from 'kysely';
import { compileByShape, compileOnce } from './compiled-query.ts';
import { completeStepPostgres, enqueueStepsPostgres } from './complete-step-postgres.ts';
import type { StoreContext } from './context.ts';
import { leasedStepFromRow, prefixedIntentColumns } from './lease-with-intent-postgres.ts';
import { lower, stepFromRow } from './rows.ts';
import type { Database, IntentStepRow } from './schema.ts';
import { journalMarkUpdate, storedMark } from './signed-transactions.ts';
import type { IntentStep, RowAdvance, StatusUpdate, StepsRepo } from './types.ts';

export interface StepsRepoDeps {
  /** TransactionsRepo.advance: a completion's receipt row where it cannot ride in the completion's statement. */
  advanceRow(row: RowAdvance): Promise<unknown>;
  /** IntentsRepo.updateStatus: a completion's end where it cannot ride in the completion's statement. */
  updateStatus(update: StatusUpdate): Promise<{ updated: boolean }>;
}

export function createStepsRepo(ctx: StoreContext, deps: StepsRepoDeps): StepsRepo {
  const { db } = ctx;
  const statements = compileStatements(ctx);
  return {
    async enqueue({ intentId, step, runAt }) {
      const id = lower(intentId);
      const at = runAt?.getTime() ?? ctx.now().getTime();
      // The new row comes back from the insert; only a step journaled before is read back.
      const inserted = await db.executeQuery<IntentStepRow>(
        statements.insertReturning(pendingRow(id, step, at)),
      );
      const row =
        inserted.rows[0] ??
        (await db.executeQuery<IntentStepRow>(statements.selectStep({ id, step }))).rows[0];
      if (!row) throw new Error(`step ${step} of intent ${id} is neither inserted nor journaled`);
      return stepFromRow(row);
    },

    async enqueueAll({ intentId, steps, lease, journalMark }) {
      if (steps.length === 0 && !journalMark) return [];
      const now = ctx.now().getTime();
      // Postgres: the insert a completion's successors go through, which returns each with its intent's row,
      // with the journal mark in the same statement.
      if ((lease || journalMark) && ctx.capabilities.supportsDataModifyingWith)
        return enqueueStepsPostgres(db, { intentId: lower(intentId), steps, lease, journalMark }, now);
      // Elsewhere (SQLite, in the process) the mark first: the steps never run before it.
      if (journalMark) await journalMarkUpdate(db, storedMark(journalMark, now)).execute();
      if (steps.length === 0) return [];
      const id = lower(intentId);
      const rows = steps.map(({ step, runAt }) => {
        const at = runAt?.getTime() ?? now;
        return {
          ...pendingRow(id, step, at),
          created_at: now,
          updated_at: now,
          ...(lease && at <= now && leasedColumns(lease.owner, now + lease.leaseMs)),
        };
      });
      if (!lease) {
        await db.executeQuery(statements.insertPending(...shaped(rows)));
        return [];
      }
      // One insert for both kinds: the rows it returns that are running are the ones leased here.
      const inserted = await db.executeQuery<IntentStepRow>(statements.insertLeased(...shaped(rows)));
      return inserted.rows.filter((row) => row.state === 'running').map(stepFromRow);
    },

    async leaseDue({ owner, limit, leaseMs, now: at }) {
      const now = (at ?? ctx.now()).getTime();
      const { rows } = await db.executeQuery<IntentStepRow & Record<string, unknown>>(
        statements.lease({ owner, leaseUntil: now + leaseMs, now, limit }),
      );
      return rows
        .map(leasedStepFromRow)
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

    async complete({ id, owner, enqueue, row, end, journalMark }) {
      const done = async (trx: Kysely<Database>, now: number) =>
        ((await trx.executeQuery(statements.markDone({ id, owner, now }))).numAffectedRows ?? 0n) > 0n;
      if ((row || end || journalMark) && ctx.capabilities.supportsDataModifyingWith && ctx.notifyInWrite) {
        // The journal mark, the receipt row, the intent's end, the completion and the successors in one
        // statement: one round trip, not two or three.
        return completeStepPostgres(
          db,
          { id, owner, enqueue, row, end, journalMark },
          ctx.now().getTime(),
          ctx.notifyInWrite,
        );
      }
      // In the process (SQLite): the mark, the row and the end first, each on its own, as the step would
      // have written them; the end does not wait on the lease either.
      if (journalMark) await journalMarkUpdate(db, storedMark(journalMark, ctx.now().getTime())).execute();
      if (row) await deps.advanceRow(row);
      const ended = end ? { ended: (await deps.updateStatus(end)).updated } : {};
      const later = enqueue?.later ?? [];
      if (!enqueue || enqueue.steps.length + later.length === 0) {
        // One statement: nothing else has to commit with it.
        return { done: await done(db, ctx.now().getTime()), leased: [], ...ended };
      }
      // The next steps and the completion commit together: a crash between them would leave a done
      // step whose successors were never journaled (or half of them).
      if (ctx.capabilities.supportsDataModifyingWith) {
        const completed = await completeStepPostgres(
          db,
          { id, owner, enqueue },
          ctx.now().getTime(),
          ctx.notifyInWrite,
        );
        return { ...completed, ...ended };
      }
      const completed = await db.transaction().execute(async (trx) => {
        const now = ctx.now().getTime();
        const intentId = lower(enqueue.intentId);
        const lease = enqueue.leaseMs === undefined ? undefined : { owner, until: now + enqueue.leaseMs };
        const rows = enqueue.steps.map((step) => ({
          ...pendingRow(intentId, step, now),
          ...(lease && leasedColumns(lease.owner, lease.until)),
        }));
        let leased: IntentStep[] = [];
        if (rows.length > 0) {
          const inserted = await trx.executeQuery<IntentStepRow>(
            lease ? statements.insertLeased(...shaped(rows)) : statements.insertPending(...shaped(rows)),
          );
          if (lease) leased = inserted.rows.map(stepFromRow);
        }
        const pending = later.map(({ step, runAt }) => ({
          ...pendingRow(intentId, step, runAt.getTime()),
          created_at: now,
          updated_at: now,
        }));
        if (pending.length > 0) await trx.executeQuery(statements.insertPending(...shaped(pending)));
        return { done: await done(trx, now), leased };
      });
      return { ...completed, ...ended };
    },

    async fail({ id, owner, error, retryAt }) {
      const now = ctx.now().getTime();
      const query = retryAt
        ? statements.retryLater({ id, owner, error, now, retryAt: retryAt.getTime() })
        : statements.giveUp({ id, owner, error, now });
      return ((await db.executeQuery(query)).numAffectedRows ?? 0n) > 0n;
    },

    async requeue({ intentId, step, runAt }) {
      const id = lower(intentId);
      const at = runAt?.getTime() ?? ctx.now().getTime();
      const inserted = await db.executeQuery<IntentStepRow>(
        statements.insertReturning(pendingRow(id, step, at)),
      );
      if (inserted.rows.length > 0) return;
      await db
        .updateTable('intent_steps')
        .set({
          state: 'pending',
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          lease_owner: null,
          lease_until: null,
          updated_at: ctx.now().getTime(),
        })
        .where('intent_id', '=', id)
        .where('step', '=', step)
        .where('state', 'in', ['done', 'failed'])
        .execute();
    },

    async release({ ids, owner, now: at }) {
      if (ids.length === 0) return [];
      const now = (at ?? ctx.now()).getTime();
      const rows = await db
        .updateTable('intent_steps')
        .set({
          state: 'pending',
          lease_owner: null,
          lease_until: null,
          next_attempt_at: now,
          updated_at: now,
        })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'running')
        .returning('intent_id')
        .execute();
      return rows.map((r) => r.intent_id);
    },

    async leaseOwners() {
      const rows = await db
        .selectFrom('intent_steps')
        .select('lease_owner')
        .distinct()
        .where('state', '=', 'running')
        .where('lease_owner', 'is not', null)
        .execute();
      return rows.map((r) => r.lease_owner!);
    },

    async endLeases({ owners, now: at }) {
      if (owners.length === 0) return [];
      const now = (at ?? ctx.now()).getTime();
      // Just before now: the lease statement takes a running step whose lease_until is below its now, and
      // records the owner it was taken over from, as for a lease that ran out.
      const rows = await db
        .updateTable('intent_steps')
        .set({ lease_until: now - 1, updated_at: now })
        .where('lease_owner', 'in', owners)
        .where('state', '=', 'running')
        .where('lease_until', '>=', now)
        .returning('intent_id')
        .execute();
      return rows.map((r) => r.intent_id);
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

/** Rows as a compiled insert takes them: its shape (the row count) and values named `<row>:<column>`. */
function shaped(rows: readonly Record<string, unknown>[]): [string, Record<string, unknown>] {
  const values = Object.fromEntries(
    rows.flatMap((row, i) => Object.entries(row).map(([column, value]) => [`${i}:${column}`, value])),
  );
  return [String(rows.length), values];
}

/** A pending step's row, to run at `runAt` (ms). */
function pendingRow(intentId: string, step: string, runAt: number) {
  return {
    intent_id: intentId,
    step,
    state: 'pending',
    attempts: 0,
    next_attempt_at: runAt,
    last_error: null,
    lease_owner: null,
    lease_until: null,
    created_at: runAt,
    updated_at: runAt,
  };
}

/** What makes a pending row one leased to `owner` until `until` (ms) as it is journaled. */
function leasedColumns(owner: string, until: number) {
  return { state: 'running', attempts: 1, lease_owner: owner, lease_until: until };
}

type PendingRow = ReturnType<typeof pendingRow>;

/** The runner's statements, built once; the SQL is what the query builder gave for each call before. */
function compileStatements({ db, capabilities }: StoreContext) {
  const insertSteps = (v: Record<string, unknown>, rows: string) =>
    db
      .insertInto('intent_steps')
      .values(
        Array.from({ length: Number(rows) }, (_, i) =>
          Object.fromEntries(
            Object.keys(pendingRow('', '', 0)).map((column) => [column, v[`${i}:${column}`]]),
          ),
        ) as PendingRow[],
      )
      .onConflict((oc) => oc.columns(['intent_id', 'step']).doNothing());
  return {
    /** Journals a pending step unless already journaled; returns the new row only. */
    insertReturning: compileOnce((row: PendingRow) =>
      db
        .insertInto('intent_steps')
        .values(row)
        .onConflict((oc) => oc.columns(['intent_id', 'step']).doNothing())
        .returningAll()
        .compile(),
    ),

    selectStep: compileOnce((v: { id: string; step: string }) =>
      db
        .selectFrom('intent_steps')
        .selectAll()
        .where('intent_id', '=', v.id)
        .where('step', '=', v.step)
        .compile(),
    ),

    /** Journals pending steps (values named `<row>:<column>`); steps already journaled are left as they are. */
    insertPending: compileByShape((v: Record<string, unknown>, rows) => insertSteps(v, rows).compile()),

    /** The same, for steps some of which are leased to the worker at once; returns the rows it inserted. */
    insertLeased: compileByShape((v: Record<string, unknown>, rows) =>
      insertSteps(v, rows).returningAll().compile(),
    ),

    lease: compileOnce((v: { owner: string; leaseUntil: number; now: number; limit: number }) => {
      // Postgres: SKIP LOCKED lets concurrent workers pass over each other's rows instead of
      // leasing the same ones. SQLite: one writer at a time makes the UPDATE atomic on its own.
      const due = db
        .selectFrom('intent_steps')
        .select('id')
        .where('state', 'in', ['pending', 'running'])
        .where('next_attempt_at', '<=', v.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', v.now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(v.limit)
        .$if(capabilities.supportsSkipLocked, (qb) => qb.forUpdate().skipLocked());
      const lease = db
        .updateTable('intent_steps')
        .set((eb) => ({
          state: 'running',
          lease_owner: v.owner,
          lease_until: v.leaseUntil,
          attempts: eb('attempts', '+', 1),
          // SET reads the row as it was: a step still `running` here had a lease that ran out.
          taken_over_from: eb
            .case()
            .when('state', '=', 'running')
            .then(eb.ref('lease_owner'))
            .else(null)
            .end(),
          updated_at: v.now,
        }))
        .where('id', 'in', due)
        .returningAll();
      if (!capabilities.supportsLeaseWithIntent) return lease.compile();
      // Each leased step's intent row from the same statement (lease-with-intent-postgres.ts).
      return db
        .with('leased', () => lease)
        .selectFrom('leased')
        .leftJoin('intents as i', 'i.intent_id', 'leased.intent_id')
        .selectAll('leased')
        .select(prefixedIntentColumns('i'))
        .compile();
    }),

    markDone: compileOnce((v: { id: number; owner: string; now: number }) =>
      db
        .updateTable('intent_steps')
        .set({ state: 'done', lease_owner: null, lease_until: null, updated_at: v.now })
        .where('id', '=', v.id)
        .where('lease_owner', '=', v.owner)
        .where('state', '=', 'running')
        .compile(),
    ),

    retryLater: compileOnce((v: { id: number; owner: string; error: string; now: number; retryAt: number }) =>
      db
        .updateTable('intent_steps')
        .set({
          state: 'pending',
          last_error: v.error,
          lease_owner: null,
          lease_until: null,
          next_attempt_at: v.retryAt,
          updated_at: v.now,
        })
        .where('id', '=', v.id)
        .where('lease_owner', '=', v.owner)
        .where('state', '=', 'running')
        .compile(),
    ),

    giveUp: compileOnce((v: { id: number; owner: string; error: string; now: number }) =>
      db
        .updateTable('intent_steps')
        .set({
          state: 'failed',
          last_error: v.error,
          lease_owner: null,
          lease_until: null,
          updated_at: v.now,
        })
        .where('id', '=', v.id)
        .where('lease_owner', '=', v.owner)
        .where('state', '=', 'running')
        .compile(),
    ),
  };
}
