/**
 * getReceipt's read on Postgres: the intent's columns and its receipt rows as a JSON array, one statement.
 * The reads asked for in one event-loop turn go out together: one statement for all of them
 * (`intent_id = any(…)`), not one each. Every held WaitIntentReceipt call reads when its intent changes,
 * and the changes of several intents arrive together (a settlement batch, the answers of pipelined writes,
 * a notification burst): each statement saved is a round trip and ~0.3 ms of the server's CPU
 * (docs/benchmarks.md, "Postgres against SQLite").
 */
import { type Kysely, sql } from 'kysely';
import { createBatchedRead } from './batched-read.ts';
import { compileOnce } from './compiled-query.ts';
import { ofProject } from './rows.ts';
import {
  type Database,
  INTENT_COLUMNS_BUT_DOCUMENTS,
  INTENT_COLUMNS_BUT_PLAN,
  type IntentRow,
  type IntentTransactionRow,
} from './schema.ts';

export interface ReadReceipt {
  row: IntentRow | undefined;
  transactions: IntentTransactionRow[];
}

/**
 * `id` lower-case; `picked`: the caller has the wire intent's receipt fields already, so intent_json is
 * left out (receipt-fields.ts).
 */
export type AggregatedReceiptRead = (id: string, projectId: number, picked: boolean) => Promise<ReadReceipt>;

type ReceiptRow = IntentRow & { transactions: IntentTransactionRow[] };

export function createAggregatedReceiptReads(db: Kysely<Database>): AggregatedReceiptRead {
  const statements = compileStatements(db);
  const keyOf = (row: ReceiptRow) => row.intent_id;
  // One batch per statement shape. The statements read by id alone, so the project is checked on the row:
  // another project's intent reads as unknown.
  const withPlanLeftOut = createBatchedRead<ReceiptRow>({
    db,
    batches: true,
    one: (id) => statements.oneWithoutPlan({ id }),
    many: (ids) => statements.manyWithoutPlan({ ids }),
    keyOf,
  });
  const withDocumentsLeftOut = createBatchedRead<ReceiptRow>({
    db,
    batches: true,
    one: (id) => statements.oneWithoutDocuments({ id }),
    many: (ids) => statements.manyWithoutDocuments({ ids }),
    keyOf,
  });
  return async (id, projectId, picked) => {
    const [row] = await (picked ? withDocumentsLeftOut : withPlanLeftOut)(id);
    return toRead(ofProject(row, projectId));
  };
}

function toRead(row: ReceiptRow | undefined): ReadReceipt {
  return { row, transactions: row?.transactions ?? [] };
}

/**
 * The intent's `columns` and its receipt rows as a JSON array in id order. Each element is the row as
 * selected would give it: numbers for the integer and millisecond columns, and the amount as its decimal
 * text (a JSON number would lose digits past 2^53).
 */
function compileStatements(db: Kysely<Database>) {
  const withReceipt = (columns: readonly (keyof IntentRow)[]) =>
    db
      .selectFrom('intents as i')
      .select(columns.map((c) => `i.${c}` as const))
      .select(
        sql<
          IntentTransactionRow[]
        >`(select coalesce(json_agg(to_jsonb(t) || jsonb_build_object('token_amount', t.token_amount::text) order by t.id), '[]'::json) from intent_transactions as t where t.intent_id = i.intent_id)`.as(
          'transactions',
        ),
      );
  // Planned once, not at every execution: with `= any($1)` a custom plan knows the array's length and the
  // generic one guesses ten, so the generic plan looked dearer and was never kept (~250 µs of planning a
  // read). The array behind a sub-select is a value neither plan knows, so both guess alike.
  const one = (columns: readonly (keyof IntentRow)[]) =>
    compileOnce((v: { id: string }) => withReceipt(columns).where('i.intent_id', '=', v.id).compile());
  const many = (columns: readonly (keyof IntentRow)[]) =>
    compileOnce((v: { ids: string[] }) =>
      withReceipt(columns)
        .where('i.intent_id', '=', sql<string>`any((select ${v.ids}::text[])::text[])`)
        .compile(),
    );
  return {
    oneWithoutPlan: one(INTENT_COLUMNS_BUT_PLAN),
    manyWithoutPlan: many(INTENT_COLUMNS_BUT_PLAN),
    oneWithoutDocuments: one(INTENT_COLUMNS_BUT_DOCUMENTS),
    manyWithoutDocuments: many(INTENT_COLUMNS_BUT_DOCUMENTS),
  };
}
