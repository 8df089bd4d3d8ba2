/** Intents: insert, scoped reads, forward-only status moves, receipts. */
import type { StoreContext } from './context.ts';
import { intentHistory, intentHistoryIndex, receiptsOf } from './intent-history.ts';
import { byKind, intentFromRow, lower, transactionFromRow } from './rows.ts';
import { searchIntents } from './search-intents.ts';
import { isTerminal, predecessorsOf } from './statuses.ts';
import { newTransactionRow, selectTransactionsOf } from './transactions.ts';
import type { IntentStatus, IntentsRepo } from './types.ts';

export function createIntentsRepo(ctx: StoreContext): IntentsRepo {
  const { db } = ctx;

  const get: IntentsRepo['get'] = async ({ projectId, intentId }) => {
    const row = await db
      .selectFrom('intents')
      .selectAll()
      .where('intent_id', '=', lower(intentId))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row && intentFromRow(row);
  };

  return {
    async insert(input) {
      const createdAt = (input.createdAt ?? ctx.now()).getTime();
      const insertIntent = (trx: typeof db) =>
        trx
          .insertInto('intents')
          .values({
            intent_id: lower(input.intentId),
            project_id: input.projectId,
            status: 'QUOTED',
            owner_address: lower(input.ownerAddress),
            origin_chain_id: input.originChainId,
            destination_chain_id: input.destinationChainId,
            origin_intent_address: lower(input.originIntentAddress),
            destination_intent_address: lower(input.destinationIntentAddress),
            origin_token_address: lower(input.originTokenAddress),
            origin_token_amount: input.originTokenAmount.toString(),
            destination_token_address: lower(input.destinationTokenAddress),
            destination_token_amount: input.destinationTokenAmount.toString(),
            intent_json: JSON.stringify(input.intent),
            plan_json: input.planJson ?? null,
            quote_expires_at: input.quoteExpiresAt.getTime(),
            created_at: createdAt,
            updated_at: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      const transactions = input.transactions ?? [];
      const row =
        transactions.length === 0
          ? await insertIntent(db)
          : await db.transaction().execute(async (trx) => {
              const inserted = await insertIntent(trx);
              const now = ctx.now().getTime();
              await trx
                .insertInto('intent_transactions')
                .values(transactions.map((t) => newTransactionRow({ ...t, intentId: input.intentId }, now)))
                .execute();
              return inserted;
            });
      await ctx.notifyInsert({ projectId: row.project_id, ownerAddress: row.owner_address });
      if (transactions.length > 0) await ctx.notify(row.intent_id);
      return intentFromRow(row);
    },

    get,

    async getForEngine(intentId) {
      const row = await db
        .selectFrom('intents')
        .selectAll()
        .where('intent_id', '=', lower(intentId))
        .executeTakeFirst();
      return row && intentFromRow(row);
    },

    async updateStatus(update) {
      const at = (update.at ?? ctx.now()).getTime();
      const intentId = lower(update.intentId);
      // The WHERE clause is the guard: only an intent in an earlier status is touched, so two
      // racing writers can never move an intent backwards or overwrite a terminal status.
      const allowedFrom = predecessorsOf(update.to);
      const row =
        allowedFrom.length === 0
          ? undefined
          : await db
              .updateTable('intents')
              .set((eb) => ({
                status: update.to,
                updated_at: at,
                started_at:
                  update.to === 'EXECUTING' ? eb.fn.coalesce('started_at', eb.val(at)) : eb.ref('started_at'),
                finished_at: isTerminal(update.to) ? at : eb.ref('finished_at'),
                ...(update.committedAt && { committed_at: update.committedAt.getTime() }),
                ...(update.executeDeadline && { execute_deadline: update.executeDeadline.getTime() }),
                ...(update.depositTransactionHash && {
                  deposit_transaction_hash: lower(update.depositTransactionHash),
                }),
              }))
              .where('intent_id', '=', intentId)
              .where('status', 'in', allowedFrom)
              .returning('status')
              .executeTakeFirst();
      if (row) {
        await ctx.notify(intentId);
        return { updated: true, status: row.status as IntentStatus };
      }
      const current = await db
        .selectFrom('intents')
        .select('status')
        .where('intent_id', '=', intentId)
        .executeTakeFirst();
      return { updated: false, status: current?.status as IntentStatus | undefined };
    },

    async getReceipt({ projectId, intentId }) {
      // Both reads go out at once; the transactions are dropped if the intent is not the caller's.
      const [intent, transactions] = await Promise.all([
        get({ projectId, intentId }),
        selectTransactionsOf(db, [lower(intentId)]),
      ]);
      if (!intent) return undefined;
      return { intent, transactions: byKind(transactions.map(transactionFromRow)) };
    },

    search: (filter) => searchIntents(ctx, filter),
    history: (filter) => intentHistory(ctx, filter),
    historyIndex: (filter) => intentHistoryIndex(ctx, filter),
    getReceipts: ({ projectId, intentIds }) => receiptsOf(ctx, projectId, intentIds),

    async listByStatus(statuses, limit) {
      if (statuses.length === 0) return [];
      const rows = await db
        .selectFrom('intents')
        .selectAll()
        .where('status', 'in', statuses)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(intentFromRow);
    },
  };
}
