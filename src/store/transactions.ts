/** The receipt transactions of an intent: one row per (intent, kind). */
import type { Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import { lower, transactionFromRow } from './rows.ts';
import type { Database, IntentTransactionRow } from './schema.ts';
import type { TransactionsRepo, TransactionUpsert } from './types.ts';

export function selectTransactionsOf(
  db: Kysely<Database>,
  intentIds: string[],
): Promise<IntentTransactionRow[]> {
  if (intentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('intent_transactions')
    .selectAll()
    .where('intent_id', 'in', intentIds)
    .orderBy('id')
    .execute();
}

/** Only the fields the caller gave: undefined means "keep what is stored". */
function changedColumns(input: TransactionUpsert) {
  const columns: Partial<Omit<IntentTransactionRow, 'id' | 'intent_id' | 'kind' | 'created_at'>> = {
    status: input.status,
    chain_id: input.chainId,
  };
  if (input.fromAddress !== undefined) columns.from_address = lower(input.fromAddress);
  if (input.toAddress !== undefined) columns.to_address = lower(input.toAddress);
  if (input.tokenAddress !== undefined) columns.token_address = lower(input.tokenAddress);
  if (input.tokenAmount !== undefined) columns.token_amount = input.tokenAmount?.toString() ?? null;
  if (input.statusReason !== undefined) columns.status_reason = input.statusReason;
  if (input.txnHash !== undefined) columns.txn_hash = lower(input.txnHash);
  if (input.calldata !== undefined) columns.calldata = input.calldata;
  if (input.minedAt !== undefined) columns.mined_at = input.minedAt?.getTime() ?? null;
  if (input.meta !== undefined) columns.meta_json = input.meta === null ? null : JSON.stringify(input.meta);
  return columns;
}

/** The full row a first write of (intent, kind) inserts: the given fields, null for the rest. */
export function newTransactionRow(input: TransactionUpsert, now: number) {
  return {
    intent_id: lower(input.intentId),
    kind: input.kind,
    chain_id: input.chainId,
    status: input.status,
    from_address: null,
    to_address: null,
    token_address: null,
    token_amount: null,
    status_reason: null,
    txn_hash: null,
    calldata: null,
    mined_at: null,
    meta_json: null,
    ...changedColumns(input),
    updated_at: now,
    created_at: now,
  };
}

export function createTransactionsRepo(ctx: StoreContext): TransactionsRepo {
  const { db } = ctx;
  return {
    async upsert(input) {
      const now = ctx.now().getTime();
      const intentId = lower(input.intentId);
      const columns = { ...changedColumns(input), updated_at: now };
      const row = await db
        .insertInto('intent_transactions')
        .values(newTransactionRow(input, now))
        .onConflict((oc) => oc.columns(['intent_id', 'kind']).doUpdateSet(columns))
        .returningAll()
        .executeTakeFirstOrThrow();
      await ctx.notify(intentId);
      return transactionFromRow(row);
    },

    async advance({ from, ...input }) {
      const now = ctx.now().getTime();
      const intentId = lower(input.intentId);
      if (from.length === 0) throw new RangeError('advance: `from` names no status the row may move from');
      const row = await db
        .insertInto('intent_transactions')
        .values(newTransactionRow(input, now))
        .onConflict((oc) =>
          oc
            .columns(['intent_id', 'kind'])
            .doUpdateSet({ ...changedColumns(input), updated_at: now })
            .where('intent_transactions.status', 'in', [...from]),
        )
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await ctx.notify(intentId);
      return transactionFromRow(row);
    },

    async list(intentId) {
      return (await selectTransactionsOf(db, [lower(intentId)])).map(transactionFromRow);
    },
  };
}
