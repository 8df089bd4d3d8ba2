/**
 * The signed-transaction journal: every transaction is stored before it is broadcast, so after a
 * crash it is re-broadcast as it was (same nonce, same bytes) rather than signed again.
 */
import { type Kysely, sql } from 'kysely';
import type { JournalMark } from '../chains/transaction-journal.ts';
import { createPgAllocateAndRecord } from './allocate-and-record-postgres.ts';
import { createBatchedRead } from './batched-read.ts';
import { compileOnce } from './compiled-query.ts';
import type { StoreContext } from './context.ts';
import { allocateNonce } from './nonces.ts';
import { lower, signedTransactionFromRow } from './rows.ts';
import type { Database, SignedTransactionRow } from './schema.ts';
import type { RowAdvance, SignedTransaction, SignedTransactionsRepo, SignTransactionInput } from './types.ts';

/** A journal mark as its statement writes it: the hash lower-cased, times in ms, the block a number. */
export type StoredMark =
  | { stage: 'broadcast'; hash: string; at: number }
  | { stage: 'mined'; hash: string; status: 'mined' | 'failed'; at: number; block?: number; index?: number };

export function storedMark(mark: JournalMark, now: number): StoredMark {
  const at = mark.at?.getTime() ?? now;
  if (mark.stage === 'broadcast') return { stage: 'broadcast', hash: lower(mark.hash), at };
  return {
    stage: 'mined',
    hash: lower(mark.hash),
    status: mark.status,
    at,
    ...(mark.block !== undefined && { block: Number(mark.block) }),
    ...(mark.index !== undefined && { index: mark.index }),
  };
}

/**
 * The journal's change for a mark, to run alone (markBroadcast, markMined) or inside a receipt row's write
 * (transactions.ts). A broadcast mark moves only a row still `signed`: re-broadcasts keep the first time.
 */
export function journalMarkUpdate(db: Kysely<Database>, mark: StoredMark) {
  if (mark.stage === 'broadcast') {
    return db
      .updateTable('signed_transactions')
      .set({ status: 'broadcast', broadcast_at: mark.at })
      .where('hash', '=', mark.hash)
      .where('status', '=', 'signed');
  }
  return db
    .updateTable('signed_transactions')
    .set({
      status: mark.status,
      mined_at: mark.at,
      ...(mark.block !== undefined && { mined_block: mark.block }),
      ...(mark.index !== undefined && { mined_index: mark.index }),
    })
    .where('hash', '=', mark.hash);
}

/** The shared row mapping plus where the transaction was mined (migration 0004). */
function fromRow(row: SignedTransactionRow): SignedTransaction {
  const minedBlock =
    row.mined_block === null || row.mined_block === undefined ? null : Number(row.mined_block);
  return { ...signedTransactionFromRow(row), minedBlock, minedIndex: row.mined_index ?? null };
}

export interface SignedTransactionsRepoDeps {
  /** TransactionsRepo.advance: a new signature's receipt row where it cannot ride in the record's statement. */
  advanceRow(row: RowAdvance): Promise<unknown>;
}

export function createSignedTransactionsRepo(
  ctx: StoreContext,
  deps: SignedTransactionsRepoDeps,
): SignedTransactionsRepo {
  const { db } = ctx;
  const listOfIntent = createListOfIntent(ctx);

  const setStatus = async (hash: string, status: string) => {
    await db.updateTable('signed_transactions').set({ status }).where('hash', '=', lower(hash)).execute();
  };

  const allocateInTransaction = async (
    input: SignTransactionInput<RowAdvance>,
  ): Promise<SignedTransaction> => {
    const recorded = await db.transaction().execute(async (trx) => {
      const now = ctx.now().getTime();
      const nonce = await allocateNonce(trx, {
        chainId: input.chainId,
        address: input.fromAddress,
        ...(input.nonceFloor !== undefined && { floor: input.nonceFloor }),
        now,
      });
      const signed = await input.sign(nonce);
      const row = await trx
        .insertInto('signed_transactions')
        .values({
          chain_id: input.chainId,
          from_address: lower(input.fromAddress),
          nonce,
          raw: signed.raw,
          hash: lower(signed.hash),
          purpose: input.purpose,
          intent_id: lower(input.intentId) ?? null,
          status: 'signed',
          created_at: now,
          broadcast_at: null,
          mined_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return fromRow(row);
    });
    // After the commit, as a step writing it itself would: the row must never name an unrecorded hash.
    if (input.withRecord) await deps.advanceRow(input.withRecord(recorded.hash));
    return recorded;
  };
  // Postgres: one statement per send in the common case (allocate-and-record-postgres.ts).
  const allocateAndRecord = ctx.capabilities.supportsDataModifyingWith
    ? createPgAllocateAndRecord({
        db,
        now: () => ctx.now().getTime(),
        fromRow,
        fallback: allocateInTransaction,
        notifications: ctx.notifyInWrite,
      })
    : allocateInTransaction;

  return {
    allocateAndRecord,

    async record(input) {
      const row = await db
        .insertInto('signed_transactions')
        .values({
          chain_id: input.chainId,
          from_address: lower(input.fromAddress),
          nonce: input.nonce,
          raw: input.raw,
          hash: lower(input.hash),
          purpose: input.purpose,
          intent_id: lower(input.intentId),
          status: 'signed',
          created_at: ctx.now().getTime(),
          broadcast_at: null,
          mined_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return fromRow(row);
    },

    async markBroadcast(mark) {
      await journalMarkUpdate(db, storedMark({ stage: 'broadcast', ...mark }, ctx.now().getTime())).execute();
    },
    async markMined(mark) {
      await journalMarkUpdate(db, storedMark({ stage: 'mined', ...mark }, ctx.now().getTime())).execute();
    },

    async markResent(hash) {
      await db
        .updateTable('signed_transactions')
        .set({ status: 'broadcast' })
        .where('hash', '=', lower(hash))
        .where('status', 'in', ['mined', 'failed'])
        .execute();
    },

    async highestMinedNonce({ chainId, fromAddress }) {
      // The (chain_id, from_address, nonce) index walked from the top: the newest rows are mostly mined.
      const row = await db
        .selectFrom('signed_transactions')
        .select('nonce')
        .where('chain_id', '=', chainId)
        .where('from_address', '=', lower(fromAddress))
        .where((eb) => eb.or([eb('status', 'in', ['mined', 'failed']), eb('mined_block', 'is not', null)]))
        .orderBy('nonce', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.nonce);
    },
    markReplaced: (hash) => setStatus(hash, 'replaced'),

    async findByHash(hash) {
      const row = await db
        .selectFrom('signed_transactions')
        .selectAll()
        .where('hash', '=', lower(hash))
        .executeTakeFirst();
      return row && fromRow(row);
    },

    async listUnconfirmed(filter = {}) {
      let query = db
        .selectFrom('signed_transactions')
        .selectAll()
        .where('status', 'in', ['signed', 'broadcast']);
      if (filter.chainId !== undefined) query = query.where('chain_id', '=', filter.chainId);
      if (filter.fromAddress) query = query.where('from_address', '=', lower(filter.fromAddress));
      const rows = await query
        .orderBy('chain_id')
        .orderBy('from_address')
        .orderBy('nonce')
        .orderBy('id')
        .execute();
      return rows.map(fromRow);
    },

    async listAtNonces({ chainId, fromAddress, fromNonce, belowNonce }) {
      const rows = await db
        .selectFrom('signed_transactions')
        .selectAll()
        .where('chain_id', '=', chainId)
        .where('from_address', '=', lower(fromAddress))
        .where('nonce', '>=', fromNonce)
        .where('nonce', '<', belowNonce)
        .orderBy('nonce')
        .orderBy('id')
        .execute();
      return rows.map(fromRow);
    },

    async listForIntent(intentId) {
      return (await listOfIntent(lower(intentId))).map(fromRow);
    },
  };
}

/**
 * An intent's journal rows in id order. Every step that sends reads its intent's journal first (crash
 * recovery: what was signed before is re-broadcast, not signed again), and the steps a lease hands out start
 * together: on Postgres their reads share a statement (batched-read.ts).
 */
function createListOfIntent(ctx: StoreContext): (intentId: string) => Promise<SignedTransactionRow[]> {
  const { db } = ctx;
  const ofIntent = compileOnce((v: { id: string }) =>
    db.selectFrom('signed_transactions').selectAll().where('intent_id', '=', v.id).orderBy('id').compile(),
  );
  const ofAny = compileOnce((v: { ids: string[] }) =>
    db
      .selectFrom('signed_transactions')
      .selectAll()
      .where('intent_id', '=', sql<string>`any(${v.ids}::text[])`)
      .orderBy('id')
      .compile(),
  );
  return createBatchedRead<SignedTransactionRow>({
    db,
    batches: ctx.capabilities.batchesReads,
    one: (id) => ofIntent({ id }),
    many: (ids) => ofAny({ ids }),
    keyOf: (row) => row.intent_id!,
  });
}
