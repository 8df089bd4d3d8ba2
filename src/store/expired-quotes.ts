/**
 * Deleting quotes nobody committed. A quote is ~20 KB (the wire intent and its execution plan) and most are
 * never committed, so they are deleted in small batches once they are past their expiry plus a retention
 * (the caller's cutoff, src/app/quote-retention.ts), with their receipt rows. Committed intents, and
 * everything stored for them, are never touched.
 *
 * Several processes may run this at once on Postgres: a batch is one statement that locks the rows it
 * picks (`FOR UPDATE SKIP LOCKED`), so the others pass over them and no quote is deleted twice. On SQLite a
 * batch is one short write transaction.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import type { Database } from './schema.ts';
import type { ExpiredQuotesRepo } from './types.ts';

type IntentsExpression = ExpressionBuilder<Database & { i: Database['intents'] }, 'i'>;

/**
 * The one condition that decides which quotes may go; anything that must keep a quote (a deposit seen at
 * its address) is added here. A quote is deleted only while it is still QUOTED, its quote expired before
 * the cutoff, and nothing happened to it: no engine step journaled, no transaction signed for it, and no
 * transaction hash on any of its receipt rows (a deposit found at its address is recorded there).
 */
export function deletableQuote(eb: IntentsExpression, expiredBeforeMs: number) {
  return eb.and([
    eb('i.status', '=', 'QUOTED'),
    eb('i.quote_expires_at', '<', expiredBeforeMs),
    eb.not(
      eb.exists(
        eb.selectFrom('intent_steps as s').select('s.id').whereRef('s.intent_id', '=', 'i.intent_id'),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('signed_transactions as st')
          .select('st.id')
          .whereRef('st.intent_id', '=', 'i.intent_id'),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('intent_transactions as t')
          .select('t.id')
          .whereRef('t.intent_id', '=', 'i.intent_id')
          .where('t.txn_hash', 'is not', null),
      ),
    ),
  ]);
}

/** The oldest `limit` deletable quotes (the scan follows `intents_status`: status, then id). */
function deletableIds(db: Kysely<Database>, expiredBeforeMs: number, limit: number) {
  return db
    .selectFrom('intents as i')
    .select('i.intent_id')
    .where((eb) => deletableQuote(eb, expiredBeforeMs))
    .orderBy('i.id')
    .limit(limit);
}

export function createExpiredQuotesRepo(ctx: StoreContext): ExpiredQuotesRepo {
  const { db, capabilities } = ctx;

  // Postgres: one statement. The CTE locks the batch (rows another process is deleting, or a writer holds,
  // are skipped) and the receipt rows go first; their foreign key is checked at the end of the statement.
  const deleteInOneStatement = async (expiredBeforeMs: number, limit: number) => {
    const result = await db
      .with('doomed', () => deletableIds(db, expiredBeforeMs, limit).forUpdate().skipLocked())
      .with('receipts', (qc) =>
        qc
          .deleteFrom('intent_transactions')
          .where('intent_id', 'in', (eb) => eb.selectFrom('doomed').select('doomed.intent_id')),
      )
      .deleteFrom('intents')
      .where('intent_id', 'in', (eb) => eb.selectFrom('doomed').select('doomed.intent_id'))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  // SQLite: the single writer holds the batch still between the read and the two deletes.
  const deleteInTransaction = (expiredBeforeMs: number, limit: number) =>
    db.transaction().execute(async (tx) => {
      const rows = await deletableIds(tx, expiredBeforeMs, limit).execute();
      const ids = rows.map((row) => row.intent_id);
      if (ids.length === 0) return 0;
      await tx.deleteFrom('intent_transactions').where('intent_id', 'in', ids).execute();
      const result = await tx.deleteFrom('intents').where('intent_id', 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    });

  return {
    deleteExpired({ expiredBefore, limit }) {
      const deleteBatch = capabilities.supportsSkipLocked ? deleteInOneStatement : deleteInTransaction;
      return deleteBatch(expiredBefore.getTime(), limit);
    },
  };
}
