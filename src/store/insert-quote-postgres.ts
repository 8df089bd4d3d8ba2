/**
 * The quote's insert on Postgres as one statement: the intent row, its receipt rows and the notifications
 * in one data-modifying WITH, so one round trip instead of six (BEGIN, two inserts, COMMIT, two
 * `pg_notify`). A statement is atomic by itself (no BEGIN/COMMIT); its NOTIFYs are sent when it commits and
 * dropped if it fails, and a conflict raises the same error as the separate inserts did (same table, same
 * constraint). The receipt rows' foreign key is checked at the end of the statement, after the intent row.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import { type CompiledInsert, compiledInsert } from './compiled-query.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import type { Database, IntentInsert, IntentTransactionsTable } from './schema.ts';

export type ReceiptInsert = Insertable<IntentTransactionsTable>;

/** Writes an intent with its receipt rows, tells every listener, and answers the intent's `id`. */
export type QuoteInsert = (intent: IntentInsert, receipts: ReceiptInsert[]) => Promise<number>;

export function createPgQuoteInsert(db: Kysely<Database>, notifications: WriteNotifications): QuoteInsert {
  // One statement per number of receipt rows (QuoteIntent always writes three), compiled on first use.
  const statements = new Map<number, CompiledInsert>();
  const statementFor = (receipts: number) => {
    let statement = statements.get(receipts);
    if (!statement) {
      statement = compiledInsert((rows) => buildStatement(db, notifications, rows, receipts), receipts + 2);
      statements.set(receipts, statement);
    }
    return statement;
  };

  return async (intent, receipts) => {
    const insert = { projectId: intent.project_id, ownerAddress: intent.owner_address };
    // As on the other path: an insert is always announced, a change only when receipt rows came with it.
    const payloads: Record<string, string> = { inserted: notifications.insertPayload(insert) };
    if (receipts.length > 0) payloads.changed = notifications.changePayload(intent.intent_id);
    const result = await db.executeQuery<{ id: number }>(
      statementFor(receipts.length).with([intent, ...receipts, payloads]),
    );
    const inserted = result.rows[0];
    if (!inserted) throw new Error('the intent insert returned no row');
    // This process's subscribers hear before insert returns, as `publish` makes them.
    notifications.deliverInsert(insert);
    if (receipts.length > 0) notifications.deliver(intent.intent_id);
    return inserted.id;
  };
}

/**
 * `rows` is the intent row, `receipts` receipt rows, then the notification payloads (`inserted`, and
 * `changed` when there are receipt rows). The channels are constants, written into the SQL text. The
 * SELECT reads `i`, so Postgres runs the intent insert first and `t` (read by nothing) after it: a
 * duplicate id is reported on the intents key even when its receipt rows collide too (insert-quote.test.ts).
 */
function buildStatement(
  db: Kysely<Database>,
  notifications: WriteNotifications,
  rows: Record<string, unknown>[],
  receipts: number,
) {
  const [intent, ...rest] = rows;
  const receiptRows = rest.slice(0, receipts);
  const payloads = rest[receipts]!;
  const withIntent = db.with('i', (qb) =>
    qb
      .insertInto('intents')
      .values(intent as never)
      .returning('id'),
  );
  const ctes =
    receipts === 0
      ? withIntent
      : (withIntent.with('t', (qb) =>
          qb.insertInto('intent_transactions').values(receiptRows as never),
        ) as unknown as typeof withIntent);
  const notify = (channel: string, payload: unknown, as: string) =>
    sql<string>`pg_notify(${sql.lit(channel)}, ${payload})`.as(as);
  return ctes
    .selectFrom('i')
    .select([
      'i.id',
      notify(notifications.insertChannel, payloads.inserted, 'inserted'),
      ...(receipts === 0 ? [] : [notify(notifications.changeChannel, payloads.changed, 'changed')]),
    ])
    .compile();
}
