/**
 * A status move with its receipt rows and the intent's steps as one statement on Postgres (ExecuteIntent's and
 * the deposit watcher's EXECUTING with the `deposit` and `origin-refund` steps): the move's data-modifying
 * WITH (pg-write-parts.ts, orderedParts) with the steps' insert (complete-step-postgres.ts, insertedEntry)
 * beside it. One round trip instead of two, and no one sees the intent EXECUTING without its steps: a worker woken by
 * the move's NOTIFY finds them journaled.
 *
 * As with the two writes it replaces, the steps are journaled whether or not the status moved, a step
 * journaled before is left as it is and not returned, and the NOTIFY is sent when the status or a row moved.
 * A step leased here comes with its intent's row as the move left it (status EXECUTING), not the statement's
 * snapshot from before the move, so the worker runs it at once on what is stored.
 */
import type { Kysely } from 'kysely';
import type { Successor } from './complete-step-postgres.ts';
import { insertedEntry } from './complete-step-postgres.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { leasedStepFromRow, PREFIXED_INTENT_COLUMNS_OF_I } from './lease-with-intent-postgres.ts';
import { compiled, join, pg } from './pg-sql.ts';
import type { StatusMoveStatement } from './pg-write-parts.ts';
import type { Database, IntentStepRow } from './schema.ts';
import type { IntentStatus, StatusUpdateResult } from './types.ts';

export async function moveWithStepsPostgres(
  db: Kysely<Database>,
  input: {
    /** Lower case. */
    intentId: string;
    /** The move with its rows and marks (pg-write-parts.ts statusMoveWith), `moved` returning the whole row. */
    statement: StatusMoveStatement;
    successors: readonly Successor[];
  },
  now: number,
  inWrite: WriteNotifications,
): Promise<StatusUpdateResult & { leased: NonNullable<StatusUpdateResult['leased']>; rowsWritten: number }> {
  const { intentId, statement, successors } = input;
  // The intent as the statement leaves it: the moved row, or the stored one when nothing moved.
  const { rows: result } = await db.executeQuery<
    IntentStepRow &
      Record<string, unknown> & {
        moved_status: IntentStatus | null;
        status: IntentStatus | null;
        written: number;
      }
  >(
    compiled(pg`with ${join([
      ...statement.entries,
      insertedEntry(intentId, [...successors], now),
      pg`"intent" as (
  select * from "moved"
  union all
  select * from "intents" where "intent_id" = ${intentId} and not exists (select 1 from "moved")
)`,
    ])}
select "inserted".*, ${PREFIXED_INTENT_COLUMNS_OF_I},
  ${statement.status} as "moved_status", (select "status" from "intent") as "status",
  ${statement.written} as "written", ${statement.notify} as "notified"
from (select 1) as "one" left join "inserted" on true
  left join "intent" as "i" on "i"."intent_id" = "inserted"."intent_id" and "inserted"."state" = 'running'`),
  );
  const first = result[0];
  const movedStatus = first?.moved_status ?? null;
  const rowsWritten = first?.written ?? 0;
  if (movedStatus || rowsWritten > 0) inWrite.deliver(intentId);
  const leased = result.filter((r) => r.id !== null && r.state === 'running').map(leasedStepFromRow);
  return movedStatus
    ? { updated: true, status: movedStatus, leased, rowsWritten }
    : { updated: false, status: first?.status ?? undefined, leased, rowsWritten };
}
