/** Intents: insert, scoped reads, forward-only status moves, receipts. */
import type { CompiledQuery } from 'kysely';
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

  // A quote's two inserts, compiled once per store: building and compiling them with Kysely on every quote
  // cost more than SQLite's own work (docs/benchmarks.md, bench:quote). Same SQL and parameters as before.
  const intentInsert = compiledInsert((row) =>
    db
      .insertInto('intents')
      .values(row as never)
      .returning('id')
      .compile(),
  );
  const transactionInserts = new Map<number, CompiledInsert>();
  const transactionInsert = (rows: number) => {
    let compiled = transactionInserts.get(rows);
    if (!compiled) {
      compiled = compiledInsert(
        (row) =>
          db
            .insertInto('intent_transactions')
            .values(row as never)
            .compile(),
        rows,
      );
      transactionInserts.set(rows, compiled);
    }
    return compiled;
  };

  return {
    async insert(input) {
      const createdAt = (input.createdAt ?? ctx.now()).getTime();
      const intentJson = JSON.stringify(input.intent);
      const row = {
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
        intent_json: intentJson,
        plan_json: input.planJson ?? null,
        quote_expires_at: input.quoteExpiresAt.getTime(),
        created_at: createdAt,
        updated_at: createdAt,
      };
      const insertIntent = async (trx: typeof db) => {
        const result = await trx.executeQuery<{ id: number }>(intentInsert.with([row]));
        const inserted = result.rows[0];
        if (!inserted) throw new Error('the intent insert returned no row');
        return inserted.id;
      };
      const transactions = input.transactions ?? [];
      const id =
        transactions.length === 0
          ? await insertIntent(db)
          : await db.transaction().execute(async (trx) => {
              const inserted = await insertIntent(trx);
              const now = ctx.now().getTime();
              const rows = transactions.map((t) =>
                newTransactionRow({ ...t, intentId: input.intentId }, now),
              );
              await trx.executeQuery(transactionInsert(rows.length).with(rows));
              return inserted;
            });
      await ctx.notifyInsert({ projectId: row.project_id, ownerAddress: row.owner_address });
      if (transactions.length > 0) await ctx.notify(row.intent_id);
      // The record is what reading the row back would give, without the read: QuoteIntent ignores it, so
      // the intent's JSON is parsed only if someone looks.
      let intent: unknown;
      let parsed = false;
      return {
        ...intentFromRow({
          ...row,
          id,
          intent_json: 'null',
          committed_at: null,
          execute_deadline: null,
          deposit_transaction_hash: null,
          started_at: null,
          finished_at: null,
        }),
        get intent() {
          if (!parsed) {
            intent = JSON.parse(intentJson);
            parsed = true;
          }
          return intent;
        },
      };
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

/** An INSERT compiled once; `with(rows)` gives it for rows with the same columns (the same SQL text). */
interface CompiledInsert {
  with(rows: Record<string, unknown>[]): CompiledQuery;
}

/**
 * Compiles `build` once for `rows` rows whose values are markers, then learns which row and column each
 * parameter is, so later calls only fill in the parameters. Every value must be a parameter: a column the
 * dialect inlined would be missing, so compiling refuses it.
 */
function compiledInsert(build: (rows: Record<string, unknown>[]) => CompiledQuery, rows = 1): CompiledInsert {
  let template: CompiledQuery | undefined;
  let slots: [number, string][] = [];
  return {
    with(values) {
      if (values.length !== rows) throw new RangeError(`compiled for ${rows} rows, got ${values.length}`);
      if (!template) {
        const columns = Object.keys(values[0] ?? {});
        const marker = (row: number, column: string) => `\u0000${row}\u0000${column}`;
        template = build(
          values.map((_, i) => Object.fromEntries(columns.map((column) => [column, marker(i, column)]))),
        );
        const byMarker = new Map(
          values.flatMap((_, i) => columns.map((column) => [marker(i, column), [i, column]] as const)),
        );
        slots = template.parameters.map((parameter) => {
          const slot = byMarker.get(parameter as string);
          if (!slot) throw new Error(`compiled insert: parameter ${String(parameter)} is not a column value`);
          return [slot[0], slot[1]];
        });
        if (slots.length !== byMarker.size) throw new Error('compiled insert: a column value was inlined');
      }
      const parameters = slots.map(([row, column]) => values[row]![column]);
      return { ...template, parameters };
    },
  };
}
