/**
 * A step's completion with its successors on Postgres as one statement: the step marked done and the next
 * steps journaled in one data-modifying WITH, so one round trip instead of four or five (BEGIN, the inserts,
 * the update, COMMIT). A statement is atomic by itself, so a crash still leaves both or neither. The
 * successors come as arrays (`unnest`), so one SQL text serves any number of them: one prepared statement.
 *
 * As in the transaction it replaces, the successors are journaled whether or not the step was still leased
 * to the caller (`done` says which), a successor journaled before is left as it is and not returned, and the
 * steps due now come before the later ones, so a step in both is journaled as due now. Each successor leased
 * to the caller comes with its intent's row, as the step lease's do.
 *
 * The engine's enqueue with a lease (StepsRepo.enqueueAll) goes through the same insert, with no step to mark
 * done: the steps it leases come back with their intent's row too. So does a status move's (ExecuteIntent's
 * steps, move-with-steps-postgres.ts: `insertedEntry`).
 *
 * A receipt row given with the completion (`row`: the step's last write, e.g. origin SUCCEEDED) moves in the
 * same statement, with its NOTIFY when it moved: the step's end and its row commit together, and the next
 * step starts one round trip sooner. So does the intent's end (`end`: a status move with its rows, built by
 * `statusMoveWith` (pg-write-parts.ts) as updateStatus builds it, the row given with it first) and a journal
 * mark without a row (`journalMark`: the fill's mined mark). Neither reads `done`: like the row, they are
 * written whether or not the step was still leased to the caller. The enqueue takes a journal mark too (the
 * fill's broadcast mark with the destination step).
 */
import type { Kysely } from 'kysely';
import type { JournalMark } from '../chains/transaction-journal.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { leasedStepFromRow, PREFIXED_INTENT_COLUMNS_OF_I } from './lease-with-intent-postgres.ts';
import { compiled, EMPTY, join, type PgSql, pg, raw } from './pg-sql.ts';
import { journalMarkEntryPg, movedRowColumnsPg, rowAdvancePg, statusMoveWith } from './pg-write-parts.ts';
import { lower } from './rows.ts';
import type { Database, IntentStepRow } from './schema.ts';
import type { LeasedStep, RowAdvance, StatusUpdate, StepLease, StepsRepo } from './types.ts';

type CompleteInput = Parameters<StepsRepo['complete']>[0];

/** One successor's row as the arrays carry it. */
export interface Successor {
  step: string;
  state: 'pending' | 'running';
  attempts: number;
  nextAttemptAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
}

export async function completeStepPostgres(
  db: Kysely<Database>,
  input: CompleteInput,
  now: number,
  notifications: WriteNotifications | undefined,
): Promise<{ done: boolean; leased: LeasedStep[]; ended?: boolean }> {
  const { id, owner, enqueue, journalMark } = input;
  const lease = enqueue?.leaseMs === undefined ? undefined : { owner, until: now + enqueue.leaseMs };
  const successors: Successor[] = [
    ...(enqueue?.steps ?? []).map((step) => successor(step, now, lease)),
    ...(enqueue?.later ?? []).map(({ step, runAt }) => successor(step, runAt.getTime(), undefined)),
  ];
  const intentId = enqueue?.intentId ?? input.row?.intentId ?? input.end?.intentId ?? '';
  // With the intent's end, the completion's row is its first row: the row's event, then the end's.
  const { row, end } = input.end
    ? {
        row: undefined,
        end: {
          ...input.end,
          rowsBefore: [...(input.row ? [input.row] : []), ...(input.end.rowsBefore ?? [])],
        },
      }
    : input;
  return journalSteps(
    db,
    { intentId, successors, done: { id, owner }, row, end, journalMark },
    now,
    notifications,
  );
}

/**
 * Journals steps of one intent outside a completion (the engine's enqueue), in one statement with the same
 * insert: the steps due now are leased to `lease.owner` (when given) and come back with their intent's row,
 * the later ones stay pending; a step journaled before is left as it is and not returned. `journalMark` (the
 * fill's broadcast mark with the destination step) is written in the same statement.
 */
export async function enqueueStepsPostgres(
  db: Kysely<Database>,
  input: {
    intentId: string;
    steps: readonly { step: string; runAt?: Date }[];
    lease?: StepLease | undefined;
    journalMark?: JournalMark | undefined;
  },
  now: number,
): Promise<LeasedStep[]> {
  const { intentId, journalMark } = input;
  const successors = enqueuedSuccessors(input.steps, input.lease, now);
  return (await journalSteps(db, { intentId, successors, journalMark }, now, undefined)).leased;
}

/** Steps enqueued outside a completion: those due now leased to `lease` when given, the rest pending. */
export function enqueuedSuccessors(
  steps: readonly { step: string; runAt?: Date | undefined }[],
  lease: StepLease | undefined,
  now: number,
): Successor[] {
  const leased = lease && { owner: lease.owner, until: now + lease.leaseMs };
  return steps.map(({ step, runAt }) => {
    const at = runAt?.getTime() ?? now;
    return successor(step, at, at <= now ? leased : undefined);
  });
}

/** A step's row as the arrays carry it: leased when `lease` is given, pending otherwise. */
function successor(
  step: string,
  nextAttemptAt: number,
  lease: { owner: string; until: number } | undefined,
): Successor {
  return {
    step,
    state: lease ? 'running' : 'pending',
    attempts: lease ? 1 : 0,
    nextAttemptAt,
    leaseOwner: lease?.owner ?? null,
    leaseUntil: lease?.until ?? null,
  };
}

/**
 * The insert of `successors`, after the completion of `done`, the move of `row`, the intent's `end` and the
 * write of `journalMark`, each when given.
 */
async function journalSteps(
  db: Kysely<Database>,
  input: {
    intentId: string;
    successors: Successor[];
    done?: { id: number; owner: string };
    row?: RowAdvance;
    end?: StatusUpdate;
    journalMark?: JournalMark | undefined;
  },
  now: number,
  notifications: WriteNotifications | undefined,
): Promise<{ done: boolean; leased: LeasedStep[]; ended?: boolean }> {
  const { successors, done, row, end } = input;
  // The outer SELECT keeps one row when nothing was inserted, so `done` always comes back. A successor
  // leased here comes with its intent's row (lease-with-intent-postgres.ts): the worker runs it at once.
  // Every inserted row is of `intentId`, so the join names the intent by the parameter, not by the inserted
  // rows' column: its index probe is then made once, not once per row. The generic plan cannot know the
  // arrays' length and counts 10 rows out of `unnest`; joined by the column, that was 10 probes, a cost
  // several times the custom plans', so Postgres planned the statement again at every execution
  // (docs/benchmarks.md, "Planning").
  const moved = row ? pg`${marked(row, now)}"moved_row" as (${rowAdvancePg(row, now)}), ` : EMPTY;
  if ((row || end) && !notifications)
    throw new Error('a completion with a receipt row or an end needs in-write notifications');
  const movedColumns = row && notifications ? pg`, ${movedRowColumnsPg(notifications)}` : EMPTY;
  // The end: its rows, then the status (the order of their events), as updateStatus writes them alone.
  const ended =
    end && notifications
      ? statusMoveWith(end, { before: end.rowsBefore ?? [], after: end.rowsAfter ?? [] }, now, notifications)
      : undefined;
  if (end && !ended) throw new Error(`no status moves to ${end.to}`);
  const endEntries = ended ? pg`${join(ended.entries)}, ` : EMPTY;
  const endColumns = ended
    ? pg`, ${ended.status} as "end_status", ${ended.written} as "end_written", ${ended.notify} as "end_notified"`
    : EMPTY;
  // A send's journal mark without a row of its own (the fill's mined mark with its completion, its broadcast
  // mark with the destination step's enqueue).
  const mark = input.journalMark ? pg`${journalMarkEntryPg('step_marked', input.journalMark, now)}, ` : EMPTY;
  const markDone = done
    ? pg`"done" as (
  update "intent_steps" set "state" = 'done', "lease_owner" = null, "lease_until" = null, "updated_at" = ${now}
  where "id" = ${done.id} and "lease_owner" = ${done.owner} and "state" = 'running' returning "id"
), `
    : EMPTY;
  const doneColumn = done ? raw(', (select count(*) from "done")::int as "done"') : EMPTY;
  const { rows } = await db.executeQuery<
    IntentStepRow &
      Record<string, unknown> & {
        done?: number;
        row_moved?: number;
        end_status?: string;
        end_written?: number;
      }
  >(
    compiled(pg`with ${mark}${moved}${endEntries}${markDone}${insertedEntry(input.intentId, successors, now)}
select "inserted".*, ${PREFIXED_INTENT_COLUMNS_OF_I}${doneColumn}${movedColumns}${endColumns}
from (select 1) as "one" left join "inserted" on true
  left join "intents" as "i" on "i"."intent_id" = ${lower(input.intentId)} and "inserted"."state" = 'running'`),
  );
  if (row && (rows[0]?.row_moved ?? 0) > 0) notifications?.deliver(lower(row.intentId));
  const statusMoved = end !== undefined && Boolean(rows[0]?.end_status);
  if (end && (statusMoved || (rows[0]?.end_written ?? 0) > 0)) notifications?.deliver(lower(end.intentId));
  const leased = rows.filter((r) => r.id !== null && r.state === 'running').map(leasedStepFromRow);
  return { done: (rows[0]?.done ?? 0) > 0, leased, ...(end && { ended: statusMoved }) };
}

/**
 * The WITH entry `"inserted"` that journals `successors` of one intent, in their order, a step journaled
 * before left as it is: the inserted rows.
 */
export function insertedEntry(intentId: string, successors: readonly Successor[], now: number): PgSql {
  const column = <K extends keyof Successor>(key: K) => successors.map((s) => s[key]);
  return pg`"inserted" as (
  insert into "intent_steps" ("intent_id", "step", "state", "attempts", "next_attempt_at", "last_error", "lease_owner", "lease_until", "created_at", "updated_at")
  select ${lower(intentId)}, s.step, s.state, s.attempts, s.next_attempt_at, null, s.lease_owner, s.lease_until, ${now}::bigint, ${now}::bigint
  from unnest(${column('step')}::text[], ${column('state')}::text[], ${column('attempts')}::int[], ${column('nextAttemptAt')}::bigint[], ${column('leaseOwner')}::text[], ${column('leaseUntil')}::bigint[])
    with ordinality as s(step, state, attempts, next_attempt_at, lease_owner, lease_until, n)
  order by s.n
  on conflict ("intent_id", "step") do nothing
  returning *
)`;
}

/** The journal mark that rides with the row (the send's mined mark with its final row), as a WITH entry. */
function marked(row: RowAdvance, now: number): PgSql {
  if (!row.journalMark) return EMPTY;
  return pg`${journalMarkEntryPg('marked', row.journalMark, now)}, `;
}
