/**
 * getReceipt's read on Postgres: the intent's columns and its receipt rows as a JSON array, one statement.
 * The reads asked for in one event-loop turn go out together: one statement for all of them
 * (`intent_id = any(…)`), not one each. Every held WaitIntentReceipt call reads when its intent changes,
 * and the changes of several intents arrive together (a settlement batch, the answers of pipelined writes,
 * a notification burst): each statement saved is a round trip and ~0.3 ms of the server's CPU
 * (docs/benchmarks.md, "Postgres against SQLite").
 */
import { type Kysely, sql } from 'kysely';
import { compileOnce } from './compiled-query.ts';
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

interface Waiting {
  id: string;
  projectId: number;
  resolve(read: ReadReceipt): void;
  reject(error: unknown): void;
}

export function createAggregatedReceiptReads(db: Kysely<Database>): AggregatedReceiptRead {
  const statements = compileStatements(db);
  /** By variant (picked or not): the reads asked for since the last flush. */
  const waiting: [Waiting[], Waiting[]] = [[], []];
  let scheduled = false;

  const runOne = async (picked: boolean, entry: Waiting) => {
    const { rows } = await db.executeQuery<ReceiptRow>(
      (picked ? statements.oneWithoutDocuments : statements.oneWithoutPlan)({
        id: entry.id,
        projectId: entry.projectId,
      }),
    );
    entry.resolve(toRead(rows[0]));
  };
  const runMany = async (picked: boolean, entries: Waiting[]) => {
    const ids = [...new Set(entries.map((entry) => entry.id))];
    const { rows } = await db.executeQuery<ReceiptRow>(
      (picked ? statements.manyWithoutDocuments : statements.manyWithoutPlan)({ ids }),
    );
    const byId = new Map(rows.map((row) => [row.intent_id, row]));
    for (const entry of entries) {
      const row = byId.get(entry.id);
      // Another project's intent reads as unknown, as the single read's `project_id = ?` does.
      entry.resolve(toRead(row && Number(row.project_id) === entry.projectId ? row : undefined));
    }
  };
  const flush = () => {
    scheduled = false;
    for (const picked of [false, true]) {
      const entries = waiting[picked ? 1 : 0];
      if (entries.length === 0) continue;
      waiting[picked ? 1 : 0] = [];
      const run = entries.length === 1 ? runOne(picked, entries[0]!) : runMany(picked, entries);
      run.catch((error: unknown) => {
        for (const entry of entries) entry.reject(error);
      });
    }
  };

  return (id, projectId, picked) =>
    new Promise<ReadReceipt>((resolve, reject) => {
      waiting[picked ? 1 : 0].push({ id, projectId, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
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
  const one = (columns: readonly (keyof IntentRow)[]) =>
    compileOnce((v: { id: string; projectId: number }) =>
      withReceipt(columns).where('i.intent_id', '=', v.id).where('i.project_id', '=', v.projectId).compile(),
    );
  const many = (columns: readonly (keyof IntentRow)[]) =>
    compileOnce((v: { ids: string[] }) =>
      withReceipt(columns).where('i.intent_id', '=', sql<string>`any(${v.ids}::text[])`).compile(),
    );
  return {
    oneWithoutPlan: one(INTENT_COLUMNS_BUT_PLAN),
    oneWithoutDocuments: one(INTENT_COLUMNS_BUT_DOCUMENTS),
    manyWithoutPlan: many(INTENT_COLUMNS_BUT_PLAN),
    manyWithoutDocuments: many(INTENT_COLUMNS_BUT_DOCUMENTS),
  };
}
