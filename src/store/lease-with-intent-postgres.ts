/**
 * A leased step's intent row, read by the statement that takes the lease (Postgres): the step lease and the
 * completion that leases successors join `intents` to the rows they wrote, so the step runner needs no read
 * of its own after each lease (one round trip per step). The intent's columns come beside the step's under
 * INTENT_COLUMN_PREFIX, each as its own column, so the driver parses them exactly as getForEngine's read.
 *
 * The row is the statement's snapshot, taken as the lease is: as fresh as a read just after it, and any
 * write that commits later is a race either read can lose.
 */
import { type AliasedRawBuilder, sql } from 'kysely';
import { raw } from './pg-sql.ts';
import { lazyIntentFromRow, stepFromRow } from './rows.ts';
import { INTENT_COLUMNS_BUT_PLAN, type IntentRow, type IntentStepRow } from './schema.ts';
import type { LeasedStep } from './types.ts';

/** Names the intent's columns apart from the step's (both have id, intent_id, created_at, updated_at). */
const INTENT_COLUMN_PREFIX = 'intent:';

/** Every column getForEngine maps. */
const INTENT_COLUMNS = [
  ...INTENT_COLUMNS_BUT_PLAN,
  'plan_json',
] as const satisfies readonly (keyof IntentRow)[];

/**
 * The intent's columns of the joined table `i`, each under INTENT_COLUMN_PREFIX, as text for the statements
 * written as text (pg-sql.ts): what `prefixedIntentColumns('i')` selects.
 */
export const PREFIXED_INTENT_COLUMNS_OF_I = raw(
  INTENT_COLUMNS.map((column) => `"i"."${column}" as "${INTENT_COLUMN_PREFIX}${column}"`).join(', '),
);

/** The intent's columns of the joined table `alias`, each under INTENT_COLUMN_PREFIX. */
export function prefixedIntentColumns(alias: string): AliasedRawBuilder<unknown, string>[] {
  return INTENT_COLUMNS.map((column) => sql.ref(`${alias}.${column}`).as(`${INTENT_COLUMN_PREFIX}${column}`));
}

/** A step row with its intent's prefixed columns: the step, and its intent unless the join found none. */
export function leasedStepFromRow(row: IntentStepRow & Record<string, unknown>): LeasedStep {
  const step: LeasedStep = stepFromRow(row);
  if (row[`${INTENT_COLUMN_PREFIX}intent_id`] == null) return step;
  const intent = Object.fromEntries(
    INTENT_COLUMNS.map((column) => [column, row[`${INTENT_COLUMN_PREFIX}${column}`]]),
  ) as unknown as IntentRow;
  step.intent = lazyIntentFromRow(intent);
  return step;
}
