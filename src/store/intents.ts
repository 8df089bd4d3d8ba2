/** Intents: insert, scoped reads, forward-only status moves, receipts. */
import { type Kysely, sql } from 'kysely';
import { type CompiledInsert, compiledInsert, compileOnce } from './compiled-query.ts';
import { enqueuedSuccessors } from './complete-step-postgres.ts';
import type { StoreContext } from './context.ts';
import { moveIfHeldFitsPostgres } from './held-fits-postgres.ts';
import { createPgQuoteInsert, type QuoteInsert } from './insert-quote-postgres.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { intentHistory, intentHistoryIndex, receiptsOf } from './intent-history.ts';
import { moveWithStepsPostgres } from './move-with-steps-postgres.ts';
import { compiled, join, pg } from './pg-sql.ts';
import { type StatusMove, statusMoveWith } from './pg-write-parts.ts';
import { listRecentQuoted, quotedAtAddresses } from './quoted-intents.ts';
import { createReceiptFieldsMemo, pickReceiptFields } from './receipt-fields.ts';
import { createAggregatedReceiptReads } from './receipt-reads-postgres.ts';
import { recipientAddressOf } from './recipient-address.ts';
import {
  byKind,
  intentColumns,
  intentFromRow,
  lazyIntentFromRow,
  lower,
  ofProject,
  transactionFromRow,
} from './rows.ts';
import {
  type Database,
  INTENT_COLUMNS_BUT_DOCUMENTS,
  INTENT_COLUMNS_BUT_PLAN,
  type IntentInsert,
  type IntentRow,
  type IntentTransactionRow,
} from './schema.ts';
import { searchIntents } from './search-intents.ts';
import { isTerminal, predecessorsOf } from './statuses.ts';
import { newTransactionRow } from './transactions.ts';
import type {
  IntentStatus,
  IntentsRepo,
  RowAdvance,
  StatusUpdate,
  StatusUpdateResult,
  StepsRepo,
} from './types.ts';

export interface IntentsRepoDeps {
  /** TransactionsRepo.advance: a status move's receipt rows where they cannot ride in its statement. */
  advanceRow(row: RowAdvance): Promise<unknown>;
  /** StepsRepo.enqueueAll: a status move's steps where they cannot ride in its statement (absent: none may). */
  enqueueSteps?: StepsRepo['enqueueAll'];
  /**
   * Where a status move and its steps cannot be one statement (SQLite): runs `write` in one transaction with
   * an intents repository bound to it, so the move, its rows and the steps commit together or not at all.
   */
  inTransaction?: <T>(write: (scoped: IntentsRepo) => Promise<T>) => Promise<T>;
}

export function createIntentsRepo(ctx: StoreContext, deps: IntentsRepoDeps): IntentsRepo {
  const { db } = ctx;
  const reads = compileReads(db);
  const receiptFields = createReceiptFieldsMemo();

  /** Both reads at once; the transactions are dropped if the intent is not the caller's. */
  const readReceiptApart = async (id: string, projectId: number, picked: boolean) => {
    const [intents, transactions] = await Promise.all([
      db.executeQuery<IntentRow>(picked ? reads.withoutDocuments({ id }) : reads.withoutPlan({ id })),
      db.executeQuery<IntentTransactionRow>(reads.transactionsOf({ id })),
    ]);
    return { row: ofProject(intents.rows[0], projectId), transactions: transactions.rows };
  };

  /** Postgres: one statement, the receipt rows as a JSON array beside the intent's columns, batched. */
  const readReceiptAggregated = ctx.capabilities.supportsJsonAggregation
    ? createAggregatedReceiptReads(db)
    : undefined;

  const get: IntentsRepo['get'] = async ({ projectId, intentId }) => {
    const { rows } = await db.executeQuery<IntentRow>(reads.byId({ id: lower(intentId) }));
    const row = ofProject(rows[0], projectId);
    return row && intentFromRow(row);
  };

  /** The move's UPDATE: the WHERE clause is its guard (see moveStatus); undefined when no status may move. */
  const statusMove = (update: StatusMove) => statusMoveQuery(db, update, (update.at ?? ctx.now()).getTime());

  /** The result of a move that wrote nothing: the status as stored now (undefined: no such intent). */
  const notMoved = async (intentId: string): Promise<StatusUpdateResult> => {
    const current = await db
      .selectFrom('intents')
      .select('status')
      .where('intent_id', '=', intentId)
      .executeTakeFirst();
    return { updated: false, status: current?.status as IntentStatus | undefined };
  };

  const moveStatus = async (update: StatusMove): Promise<StatusUpdateResult> => {
    const intentId = lower(update.intentId);
    // The WHERE clause is the guard: only an intent in an earlier status is touched, so two
    // racing writers can never move an intent backwards or overwrite a terminal status.
    const move = statusMove(update)?.returning('status');
    // Postgres: the NOTIFY rides in the statement (one round trip, not two), sent only if the row moved.
    const inWrite = ctx.notifyInWrite;
    const row = !move
      ? undefined
      : inWrite
        ? await db
            .with('moved', () => move)
            .selectFrom('moved')
            .select([
              'moved.status',
              sql<string>`pg_notify(${sql.lit(inWrite.changeChannel)}, ${inWrite.changePayload(intentId)})`.as(
                'notified',
              ),
            ])
            .executeTakeFirst()
        : await move.executeTakeFirst();
    if (!row) return notMoved(intentId);
    if (inWrite) inWrite.deliver(intentId);
    else await ctx.notify(intentId);
    return { updated: true, status: row.status as IntentStatus };
  };

  /**
   * Postgres: the move and its receipt rows as one data-modifying WITH, one round trip (orderedParts). The
   * NOTIFY rides in it, sent when the status or any row moved.
   */
  const moveWithRows = async (
    update: StatusMove,
    rows: { before: readonly RowAdvance[]; after: readonly RowAdvance[] },
    inWrite: WriteNotifications,
  ): Promise<StatusUpdateResult> => {
    const intentId = lower(update.intentId);
    const now = ctx.now().getTime();
    const statement = statusMoveWith(update, rows, now, inWrite);
    if (!statement) {
      for (const row of [...rows.before, ...rows.after]) await deps.advanceRow(row);
      return notMoved(intentId);
    }
    const { rows: result } = await db.executeQuery<{ status: IntentStatus | null; written: number }>(
      compiled(pg`with ${join(statement.entries)}
select ${statement.status} as "status", ${statement.written} as "written", ${statement.notify} as "notified"`),
    );
    const { status, written: rowsWritten } = result[0] ?? { status: null, written: 0 };
    if (status || rowsWritten > 0) inWrite.deliver(intentId);
    return status ? { updated: true, status } : notMoved(intentId);
  };

  /**
   * A move with the intent's steps: on Postgres one statement (move-with-steps-postgres.ts); elsewhere the
   * move with its rows, then the steps (calls in the process, no round trip), in one transaction where the
   * store offers one (`inTransaction`): a crash between the move and the steps would leave an EXECUTING
   * intent that no step ever runs.
   */
  const moveWithSteps = async (
    update: StatusMove,
    rows: { before: readonly RowAdvance[]; after: readonly RowAdvance[] },
    enqueue: NonNullable<StatusUpdate['enqueue']>,
  ): Promise<StatusUpdateResult> => {
    const now = ctx.now().getTime();
    const statement =
      ctx.capabilities.supportsDataModifyingWith && ctx.notifyInWrite
        ? statusMoveWith(update, rows, now, ctx.notifyInWrite, 'row')
        : undefined;
    if (statement && ctx.notifyInWrite) {
      return moveWithStepsPostgres(
        db,
        {
          intentId: lower(update.intentId),
          statement,
          successors: enqueuedSuccessors(enqueue.steps, enqueue.lease, now),
        },
        now,
        ctx.notifyInWrite,
      );
    }
    if (deps.inTransaction) {
      return deps.inTransaction((scoped) =>
        scoped.updateStatus({ ...update, rowsBefore: rows.before, rowsAfter: rows.after, enqueue }),
      );
    }
    if (!deps.enqueueSteps) throw new Error('this intents repository journals no steps');
    for (const row of rows.before) await deps.advanceRow(row);
    const moved = await moveStatus(update);
    for (const row of rows.after) await deps.advanceRow(row);
    const leased = await deps.enqueueSteps({
      intentId: update.intentId,
      steps: enqueue.steps,
      ...(enqueue.lease && { lease: enqueue.lease }),
    });
    return { ...moved, leased };
  };

  // Postgres writes the quote in one statement with its notifications; elsewhere (SQLite, in-process and
  // without a data-modifying WITH) two inserts in one transaction, then the notifications.
  const insertQuote = ctx.notifyInWrite
    ? createPgQuoteInsert(db, ctx.notifyInWrite)
    : createTransactionQuoteInsert(ctx);

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
        // Always present (null when absent): the insert is compiled once for one set of columns.
        fill_token_address: lower(input.solver?.fillTokenAddress) ?? null,
        fill_amount: input.solver?.fillAmount.toString() ?? null,
        repayment_token_address: lower(input.solver?.repaymentTokenAddress) ?? null,
        repayment_amount: input.solver?.repaymentAmount.toString() ?? null,
        recipient_address: recipientAddressOf(input.intent, input.ownerAddress),
      };
      const now = ctx.now().getTime();
      const receipts = (input.transactions ?? []).map((t) =>
        newTransactionRow({ ...t, intentId: input.intentId }, now),
      );
      const id = await insertQuote(row, receipts);
      // The record is what reading the row back would give, without the read: QuoteIntent ignores it, so
      // the intent's JSON is parsed only if someone looks.
      return lazyIntentFromRow({
        ...row,
        id,
        committed_at: null,
        execute_deadline: null,
        deposit_transaction_hash: null,
        started_at: null,
        finished_at: null,
      });
    },

    get,

    async getForEngine(intentId) {
      const { rows } = await db.executeQuery<IntentRow>(reads.byId({ id: lower(intentId) }));
      const row = rows[0];
      return row && lazyIntentFromRow(row);
    },

    async updateStatus({ rowsBefore = [], rowsAfter = [], enqueue, inventory, ...update }) {
      if (inventory) {
        // CommitIntent's move with its inventory check: one statement (held-fits-postgres.ts).
        if (enqueue || rowsBefore.length + rowsAfter.length > 0)
          throw new Error('an inventory check goes with a bare status move');
        if (!ctx.capabilities.supportsDataModifyingWith || !ctx.notifyInWrite)
          throw new Error('this store checks no inventory in a status move');
        const at = (update.at ?? ctx.now()).getTime();
        return moveIfHeldFitsPostgres(db, { update, at, check: inventory }, ctx.notifyInWrite);
      }
      if (enqueue) return moveWithSteps(update, { before: rowsBefore, after: rowsAfter }, enqueue);
      const rows = rowsBefore.length + rowsAfter.length;
      if (rows > 0 && ctx.capabilities.supportsDataModifyingWith && ctx.notifyInWrite)
        return moveWithRows(update, { before: rowsBefore, after: rowsAfter }, ctx.notifyInWrite);
      // SQLite: each write on its own, in event order (calls in the process, no round trip).
      for (const row of rowsBefore) await deps.advanceRow(row);
      const moved = await moveStatus(update);
      for (const row of rowsAfter) await deps.advanceRow(row);
      return moved;
    },

    async reopenFailed({ intentId: rawId, depositTransactionHash, at: when }) {
      const at = (when ?? ctx.now()).getTime();
      const intentId = lower(rawId);
      const result = await db
        .updateTable('intents')
        .set({
          status: 'EXECUTING',
          updated_at: at,
          finished_at: null,
          deposit_transaction_hash: lower(depositTransactionHash),
        })
        .where('intent_id', '=', intentId)
        .where('status', '=', 'FAILED')
        .executeTakeFirst();
      const moved = (result.numUpdatedRows ?? 0n) > 0n;
      if (moved) await ctx.notify(intentId);
      return moved;
    },

    async getReceipt({ projectId, intentId }) {
      // The plan is left out (a receipt never shows it), and so is the wire intent's text once its receipt
      // fields are picked: WaitIntentReceipt reads this on every wake-up.
      const id = lower(intentId);
      const picked = receiptFields.get(id);
      const read = readReceiptAggregated
        ? readReceiptAggregated(id, projectId, picked !== undefined)
        : readReceiptApart(id, projectId, picked !== undefined);
      const { row, transactions } = await read;
      if (!row) return undefined;
      const fields = picked ?? pickReceiptFields(row.intent_json);
      if (!picked) receiptFields.set(id, fields);
      return {
        intent: { ...intentColumns(row), intent: fields },
        transactions: byKind(transactions.map(transactionFromRow)),
      };
    },

    search: (filter) => searchIntents(ctx, filter),
    history: (filter) => intentHistory(ctx, filter),
    historyIndex: (filter) => intentHistoryIndex(ctx, filter),
    getReceipts: ({ projectId, intentIds }) => receiptsOf(ctx, projectId, intentIds),

    async listByStatus(statuses, limit, afterId) {
      if (statuses.length === 0) return [];
      const rows = await db
        .selectFrom('intents')
        .selectAll()
        .where('status', 'in', statuses)
        .$if(afterId !== undefined, (q) => q.where('id', '>', afterId!))
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(intentFromRow);
    },

    quotedAtAddresses: (input) => quotedAtAddresses(ctx, input),
    listRecentQuoted: (input) => listRecentQuoted(ctx, input),
  };
}

/**
 * A status move's UPDATE at `at` (ms): the WHERE clause is its guard; undefined when no status may move.
 * Postgres' moves with rows, steps or an inventory check write the same as text (pg-write-parts.ts,
 * statusMovePg).
 */
export function statusMoveQuery(db: Kysely<Database>, update: StatusMove, at: number) {
  const allowedFrom = predecessorsOf(update.to);
  if (allowedFrom.length === 0) return undefined;
  return db
    .updateTable('intents')
    .set((eb) => ({
      status: update.to,
      updated_at: at,
      started_at: update.to === 'EXECUTING' ? eb.fn.coalesce('started_at', eb.val(at)) : eb.ref('started_at'),
      finished_at: isTerminal(update.to) ? at : eb.ref('finished_at'),
      ...(update.committedAt && { committed_at: update.committedAt.getTime() }),
      ...(update.executeDeadline && { execute_deadline: update.executeDeadline.getTime() }),
      ...(update.depositTransactionHash && {
        deposit_transaction_hash: lower(update.depositTransactionHash),
      }),
    }))
    .where('intent_id', '=', lower(update.intentId))
    .where('status', 'in', allowedFrom);
}

/**
 * The reads of every step run (getForEngine) and of every WaitIntentReceipt wake-up (getReceipt), built
 * once (compiled-query.ts): the SQL text and parameters are the query builder's.
 */
function compileReads(db: Kysely<Database>) {
  /** `byId` reading only `columns`. */
  const byIdColumns = (columns: readonly (keyof IntentRow)[]) =>
    compileOnce((v: { id: string }) =>
      db.selectFrom('intents').select(columns).where('intent_id', '=', v.id).compile(),
    );
  return {
    byId: compileOnce((v: { id: string }) =>
      db.selectFrom('intents').selectAll().where('intent_id', '=', v.id).compile(),
    ),
    /** `byId` without plan_json (the row's planJson reads null). */
    withoutPlan: byIdColumns(INTENT_COLUMNS_BUT_PLAN),
    /** `withoutPlan` without intent_json either (receipt-fields.ts: picked once per intent). */
    withoutDocuments: byIdColumns(INTENT_COLUMNS_BUT_DOCUMENTS),
    /** selectTransactionsOf (transactions.ts) for one intent. */
    transactionsOf: compileOnce((v: { id: string }) =>
      db
        .selectFrom('intent_transactions')
        .selectAll()
        .where('intent_id', 'in', [v.id])
        .orderBy('id')
        .compile(),
    ),
  };
}

/**
 * The quote's two inserts in one transaction, then its notifications. Each insert is compiled once per
 * store: building and compiling them with Kysely on every quote cost more than SQLite's own work
 * (docs/benchmarks.md, bench:quote).
 */
function createTransactionQuoteInsert(ctx: StoreContext): QuoteInsert {
  const { db } = ctx;
  const intentInsert = compiledInsert((rows) =>
    db
      .insertInto('intents')
      .values(rows as never)
      .returning('id')
      .compile(),
  );
  const receiptInserts = new Map<number, CompiledInsert>();
  const receiptInsert = (rows: number) => {
    let compiled = receiptInserts.get(rows);
    if (!compiled) {
      compiled = compiledInsert(
        (values) =>
          db
            .insertInto('intent_transactions')
            .values(values as never)
            .compile(),
        rows,
      );
      receiptInserts.set(rows, compiled);
    }
    return compiled;
  };
  const insertIntent = async (trx: typeof db, intent: IntentInsert) => {
    const result = await trx.executeQuery<{ id: number }>(intentInsert.with([intent]));
    const inserted = result.rows[0];
    if (!inserted) throw new Error('the intent insert returned no row');
    return inserted.id;
  };
  return async (intent, receipts) => {
    const id =
      receipts.length === 0
        ? await insertIntent(db, intent)
        : await db.transaction().execute(async (trx) => {
            const inserted = await insertIntent(trx, intent);
            await trx.executeQuery(receiptInsert(receipts.length).with(receipts));
            return inserted;
          });
    await ctx.notifyInsert({ projectId: intent.project_id, ownerAddress: intent.owner_address });
    if (receipts.length > 0) await ctx.notify(intent.intent_id);
    return id;
  };
}
