/**
 * A status move with its receipt rows and the intent's steps as one statement on Postgres (ExecuteIntent's and
 * the deposit watcher's EXECUTING with the `deposit` and `origin-refund` steps): the move's data-modifying
 * WITH (intents.ts, orderedParts) with the steps' insert (complete-step-postgres.ts, insertedEntry) beside it.
 * One round trip instead of two, and no one sees the intent EXECUTING without its steps: a worker woken by
 * the move's NOTIFY finds them journaled.
 *
 * As with the two writes it replaces, the steps are journaled whether or not the status moved, a step
 * journaled before is left as it is and not returned, and the NOTIFY is sent when the status or a row moved.
 * A step leased here comes with its intent's row as the move left it (status EXECUTING), not the statement's
 * snapshot from before the move, so the worker runs it at once on what is stored.
 */
import { type Compilable, type Kysely, sql } from 'kysely';
import type { Successor } from './complete-step-postgres.ts';
import { insertedEntry } from './complete-step-postgres.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { leasedStepFromRow, prefixedIntentColumns } from './lease-with-intent-postgres.ts';
import type { Database, IntentStepRow } from './schema.ts';
import { journalMarkEntry } from './signed-transactions.ts';
import type { IntentStatus, RowAdvance, StatusUpdateResult } from './types.ts';

export async function moveWithStepsPostgres(
  db: Kysely<Database>,
  input: {
    /** Lower case. */
    intentId: string;
    /** The move's parts in order, `moved` returning the whole row (orderedParts). */
    parts: readonly { name: string; query: Compilable }[];
    /** The receipt rows the parts write (for their journal marks). */
    rows: readonly RowAdvance[];
    successors: readonly Successor[];
  },
  now: number,
  inWrite: WriteNotifications,
): Promise<StatusUpdateResult & { leased: NonNullable<StatusUpdateResult['leased']>; rowsWritten: number }> {
  const { intentId, parts, rows, successors } = input;
  // A row's journal mark (a send's mined mark held for its last row) is written whether or not it moves.
  const marks = rows.flatMap((row, i) =>
    row.journalMark ? [journalMarkEntry(db, `marked_${i}`, row.journalMark, now)] : [],
  );
  const rowParts = parts.filter((part) => part.name !== 'moved');
  const written =
    rowParts.length === 0
      ? sql`0`
      : sql.join(
          rowParts.map((part) => sql`(select count(*) from ${sql.table(part.name)})`),
          sql` + `,
        );
  // The intent as the statement leaves it: the moved row, or the stored one when nothing moved.
  const { rows: result } = await sql<
    IntentStepRow &
      Record<string, unknown> & {
        moved_status: IntentStatus | null;
        status: IntentStatus | null;
        written: number;
      }
  >`with ${sql.join([
    ...marks,
    ...parts.map((part) => sql`${sql.table(part.name)} as (${part.query})`),
    insertedEntry(intentId, [...successors], now),
    sql`"intent" as (
  select * from "moved"
  union all
  select * from "intents" where "intent_id" = ${intentId} and not exists (select 1 from "moved")
)`,
  ])}
select "inserted".*, ${sql.join(prefixedIntentColumns('i'))},
  (select "status" from "moved") as "moved_status", (select "status" from "intent") as "status",
  (${written})::int as "written",
  (select pg_notify(${sql.lit(inWrite.changeChannel)}, ${inWrite.changePayload(intentId)})
    where exists (select 1 from "moved") or (${written}) > 0) as "notified"
from (select 1) as "one" left join "inserted" on true
  left join "intent" as "i" on "i"."intent_id" = "inserted"."intent_id" and "inserted"."state" = 'running'`.execute(
    db,
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
