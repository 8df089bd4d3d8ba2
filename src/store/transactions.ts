/** The receipt transactions of an intent: one row per (intent, kind). */
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { createBatchedRead } from './batched-read.ts';
import { compileByShape, compileOnce } from './compiled-query.ts';
import type { StoreContext } from './context.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { lower, transactionFromRow } from './rows.ts';
import type { Database, IntentTransactionRow } from './schema.ts';
import { journalMarkUpdate, type StoredMark, storedMark } from './signed-transactions.ts';
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
export function changedColumns(input: TransactionUpsert) {
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

/**
 * Insert `row`, or on its (intent, kind) set `set` when the stored status is one of `from`; the written row.
 * Postgres' data-modifying statements write the same as text (pg-write-parts.ts, rowAdvancePg).
 */
export function upsertRowQuery(
  db: Kysely<Database>,
  write: {
    row: ReturnType<typeof newTransactionRow>;
    set: Record<string, unknown>;
    from: readonly string[];
    /** The stored row moves only while it has no meta yet. */
    onlyWithoutMeta: boolean;
  },
) {
  return db
    .insertInto('intent_transactions')
    .values(write.row)
    .onConflict((oc) => {
      const update = oc
        .columns(['intent_id', 'kind'])
        .doUpdateSet(write.set)
        .where('intent_transactions.status', 'in', [...write.from]);
      return write.onlyWithoutMeta ? update.where('intent_transactions.meta_json', 'is', null) : update;
    })
    .returningAll();
}

export function createTransactionsRepo(ctx: StoreContext): TransactionsRepo {
  const { db } = ctx;
  const statements = compileStatements(db, ctx.notifyInWrite);
  const listOf = createBatchedRead<IntentTransactionRow>({
    db,
    batches: ctx.capabilities.batchesReads,
    one: (id) => statements.listOne({ id }),
    many: (ids) => statements.listAny({ ids }),
    keyOf: (row) => row.intent_id,
  });
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

    async advance({ from, onlyWithoutMeta, journalMark, ...input }) {
      const now = ctx.now().getTime();
      const intentId = lower(input.intentId);
      if (from.length === 0) throw new RangeError('advance: `from` names no status the row may move from');
      // The engine writes a receipt row at every stage of every send: the statement is compiled once per
      // shape (the columns the call sets, how many statuses it may move from).
      const set = { ...changedColumns(input), updated_at: now };
      const values: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(newTransactionRow(input, now)))
        values[`row:${column}`] = value;
      for (const [column, value] of Object.entries(set)) values[`set:${column}`] = value;
      from.forEach((status, i) => {
        values[`from:${i}`] = status;
      });
      const shape = `${Object.keys(set).join(',')}|${from.length}|${onlyWithoutMeta ? 'once' : ''}`;
      // Postgres: the NOTIFY rides in the statement (one round trip, not two); no row moved, none is sent.
      const inWrite = ctx.notifyInWrite;
      const mark = journalMark && storedMark(journalMark, now);
      let query: CompiledQuery;
      if (mark && ctx.capabilities.supportsDataModifyingWith) {
        // The journal's mark and the row's move in one statement: they commit together, one round trip.
        for (const [field, value] of Object.entries(mark))
          if (field !== 'stage') values[`mark:${field}`] = value;
        query = statements.advanceMarking(`${shape}#${markShape(mark)}#${inWrite ? 'notify' : ''}`, values);
      } else {
        // SQLite: the mark first, on its own (a call in the process, no round trip), as the sender wrote it.
        if (mark) await journalMarkUpdate(db, mark).execute();
        query = inWrite ? statements.advanceNotifying(shape, values) : statements.advance(shape, values);
      }
      const row = (await db.executeQuery<IntentTransactionRow>(query)).rows[0];
      if (!row) return undefined;
      if (inWrite) inWrite.deliver(intentId);
      else await ctx.notify(intentId);
      return transactionFromRow(row);
    },

    // The steps a lease hands out start together and several read their intent's rows first: on
    // Postgres those reads share a statement (batched-read.ts).
    async list(intentId) {
      return (await listOf(lower(intentId))).map(transactionFromRow);
    },
  };
}

/** The engine's per-step statements, built once (compiled-query.ts); the SQL is the query builder's. */
function compileStatements(db: Kysely<Database>, notifications: WriteNotifications | undefined) {
  const advanceQuery = (v: Record<string, unknown>, shape: string) => {
    const [setColumns, fromCount, meta] = shape.split('|') as [string, string, string];
    const pick = (prefix: string, columns: string[]) =>
      Object.fromEntries(columns.map((column) => [column, v[`${prefix}:${column}`]]));
    const rowColumns = Object.keys(v)
      .filter((key) => key.startsWith('row:'))
      .map((key) => key.slice('row:'.length));
    const from = Array.from({ length: Number(fromCount) }, (_, i) => v[`from:${i}`] as string);
    return upsertRowQuery(db, {
      row: pick('row', rowColumns) as ReturnType<typeof newTransactionRow>,
      set: pick('set', setColumns.split(',')),
      from,
      onlyWithoutMeta: meta === 'once',
    });
  };
  return {
    /** selectTransactionsOf for one intent. */
    listOne: compileOnce((v: { id: string }) =>
      db
        .selectFrom('intent_transactions')
        .selectAll()
        .where('intent_id', 'in', [v.id])
        .orderBy('id')
        .compile(),
    ),
    /** listOne for several intents (Postgres: one array parameter, one statement shape). */
    listAny: compileOnce((v: { ids: string[] }) =>
      db
        .selectFrom('intent_transactions')
        .selectAll()
        .where('intent_id', '=', sql<string>`any(${v.ids}::text[])`)
        .orderBy('id')
        .compile(),
    ),

    /**
     * Insert the row, or move the stored one when its status is one of `from`. Values: `row:<column>` (the
     * full new row), `set:<column>` (the columns the update sets), `from:<i>`; the shape names the set columns
     * and how many statuses, and whether the row must have no meta yet (`onlyWithoutMeta`).
     */
    advance: compileByShape((v: Record<string, unknown>, shape) => advanceQuery(v, shape).compile()),

    /**
     * `advance` with the change's NOTIFY in the same statement (Postgres, a data-modifying WITH): sent when
     * the statement commits, and only when a row moved (the SELECT reads the moved rows).
     */
    advanceNotifying: compileByShape((v: Record<string, unknown>, shape) =>
      db
        .with('moved', () => advanceQuery(v, shape))
        .selectFrom('moved')
        .selectAll()
        .select(notified())
        .compile(),
    ),

    /**
     * `advance` with the sender's journal mark for the same stage (Postgres, a data-modifying WITH): one
     * statement, so the mark and the move commit together. The mark's UPDATE runs whether or not the row
     * moves (a data-modifying WITH always runs to completion); the SELECT reads only the moved row, and with
     * `notify` in the shape it sends the change's NOTIFY as `advanceNotifying` does. Shape:
     * `<advance's shape>#<markShape>#<"notify" or nothing>`; values: advance's and `mark:<field>` (StoredMark).
     */
    advanceMarking: compileByShape((v: Record<string, unknown>, shape) => {
      const [advanceShape, marked, notify] = shape.split('#') as [string, string, string];
      const moved = db
        .with('marked', () => journalMarkUpdate(db, markFromValues(v, marked)))
        .with('moved', () => advanceQuery(v, advanceShape))
        .selectFrom('moved')
        .selectAll();
      return (notify ? moved.select(notified()) : moved).compile();
    }),
  };

  /** The change's NOTIFY, sent when the statement commits (the SELECT reads only moved rows). */
  function notified() {
    if (!notifications) throw new Error('a notifying receipt write needs in-write notifications (Postgres)');
    const { changeChannel, senderPrefix } = notifications;
    return sql<string>`pg_notify(${sql.lit(changeChannel)}, ${sql.lit(senderPrefix)} || moved.intent_id)`.as(
      'notified',
    );
  }
}

/** Which mark a statement carries and which of its optional fields it sets: part of the compiled shape. */
function markShape(mark: StoredMark): string {
  if (mark.stage === 'broadcast') return 'broadcast';
  return ['mined', mark.block !== undefined && 'block', mark.index !== undefined && 'index']
    .filter(Boolean)
    .join(',');
}

/** The mark of a `markShape`, its values read from `mark:<field>` (markers at the one build). */
function markFromValues(v: Record<string, unknown>, shape: string): StoredMark {
  const [stage, ...optional] = shape.split(',');
  const hash = v['mark:hash'] as string;
  const at = v['mark:at'] as number;
  if (stage === 'broadcast') return { stage, hash, at };
  return {
    stage: 'mined',
    hash,
    at,
    status: v['mark:status'] as 'mined' | 'failed',
    ...(optional.includes('block') && { block: v['mark:block'] as number }),
    ...(optional.includes('index') && { index: v['mark:index'] as number }),
  };
}
