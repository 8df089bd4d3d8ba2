/**
 * A leased step's intent row and journal, read by the statement that takes the lease (Postgres): the step
 * lease, the completion that leases successors, the engine's enqueue and the status move that journals steps
 * join `intents` to the rows they wrote, so the step runner needs no read of its own after each lease (one
 * round trip per step). The intent's columns come beside the step's under INTENT_COLUMN_PREFIX, each as its
 * own column, so the driver parses them exactly as getForEngine's read.
 *
 * The intent's journal (its `signed_transactions` rows in id order, as listForIntent gives them) comes as a
 * JSON array beside them: the steps that send read it at the start of each run (src/engine/journal.ts), and
 * take it from the lease instead. Each element is the row as selected would give it: `to_jsonb` writes the
 * integer and bigint columns (nonce, the times in ms, the block) as JSON numbers, which parse to the same
 * doubles as the driver's int8 parser (`Number`, open-postgres.ts) gives the selected row, and the table
 * has no amount column. The same row mapper then maps both (signedTransactionOfRow).
 *
 * Both are the statement's snapshot, taken as the lease is: as fresh as a read just after it, and any
 * write that commits later is a race either read can lose. One exception needs care: a statement's own
 * writes are not in its snapshot (the parts of a data-modifying WITH all see the same snapshot). The intent
 * row of a status move is taken from the move's RETURNING for that reason (move-with-steps-postgres.ts), and
 * a journal mark written by the leasing statement (the fill's mined mark with its completion, a send's mark
 * with its receipt row) is applied to the journal through its RETURNING: `journalColumn`'s `marks`.
 */
import { type AliasedRawBuilder, sql } from 'kysely';
import { lazyIntentFromRow, stepFromRow } from './rows.ts';
import {
  INTENT_COLUMNS_BUT_PLAN,
  type IntentRow,
  type IntentStepRow,
  type SignedTransactionRow,
} from './schema.ts';
import { signedTransactionOfRow } from './signed-transactions.ts';
import type { LeasedStep } from './types.ts';

/** Names the intent's columns apart from the step's (both have id, intent_id, created_at, updated_at). */
const INTENT_COLUMN_PREFIX = 'intent:';
/** The intent's journal: its signed_transactions rows as a JSON array, in id order. */
const JOURNAL_COLUMN = 'intent_journal';

/** Every column getForEngine maps. */
const INTENT_COLUMNS = [
  ...INTENT_COLUMNS_BUT_PLAN,
  'plan_json',
] as const satisfies readonly (keyof IntentRow)[];

/** The intent's columns of the joined table `alias`, each under INTENT_COLUMN_PREFIX. */
export function prefixedIntentColumns(alias: string): AliasedRawBuilder<unknown, string>[] {
  return INTENT_COLUMNS.map((column) => sql.ref(`${alias}.${column}`).as(`${INTENT_COLUMN_PREFIX}${column}`));
}

/**
 * The journal of the intent joined as `alias`, as the statement leaves it: `marks` names the statement's
 * WITH entries that update `signed_transactions` rows (`update … returning *`, journalMarkEntry): a row one
 * of them updated is taken from its RETURNING (the row as written), every other from the table (the
 * statement's snapshot). No two of the marks update the same row (each is a different send's hash).
 */
export function journalColumn(
  alias: string,
  marks: readonly string[] = [],
): AliasedRawBuilder<unknown, string> {
  const intentId = sql.ref(`${alias}.intent_id`);
  const markedIds =
    marks.length === 0
      ? sql``
      : sql` and "id" not in (${sql.join(
          marks.map((name) => sql`select "id" from ${sql.table(name)}`),
          sql` union all `,
        )})`;
  const rows = sql.join(
    [
      sql`select * from "signed_transactions" where "intent_id" = ${intentId}${markedIds}`,
      ...marks.map((name) => sql`select * from ${sql.table(name)} where "intent_id" = ${intentId}`),
    ],
    sql` union all `,
  );
  return sql`(select coalesce(json_agg("j" order by "j"."id"), '[]'::json) from (${rows}) as "j")`.as(
    JOURNAL_COLUMN,
  );
}

/**
 * A step row with its intent's prefixed columns (and journal, when selected): the step, and its intent and
 * journal unless the join found no intent.
 */
export function leasedStepFromRow(row: IntentStepRow & Record<string, unknown>): LeasedStep {
  const step: LeasedStep = stepFromRow(row);
  if (row[`${INTENT_COLUMN_PREFIX}intent_id`] == null) return step;
  const intent = Object.fromEntries(
    INTENT_COLUMNS.map((column) => [column, row[`${INTENT_COLUMN_PREFIX}${column}`]]),
  ) as unknown as IntentRow;
  step.intent = lazyIntentFromRow(intent);
  const journal = row[JOURNAL_COLUMN] as SignedTransactionRow[] | null | undefined;
  if (journal) step.journal = journal.map(signedTransactionOfRow);
  return step;
}
