/**
 * The signed-transaction journal: every transaction is stored before it is broadcast, so after a
 * crash it is re-broadcast as it was (same nonce, same bytes) rather than signed again.
 */
import type { StoreContext } from './context.ts';
import { allocateNonce } from './nonces.ts';
import { lower, signedTransactionFromRow } from './rows.ts';
import type { SignedTransactionsRepo } from './types.ts';

export function createSignedTransactionsRepo(ctx: StoreContext): SignedTransactionsRepo {
  const { db } = ctx;

  const setStatus = async (
    hash: string,
    status: string,
    extra: { broadcast_at?: number; mined_at?: number } = {},
  ) => {
    await db
      .updateTable('signed_transactions')
      .set({ status, ...extra })
      .where('hash', '=', lower(hash))
      .execute();
  };

  return {
    async allocateAndRecord(input) {
      return db.transaction().execute(async (trx) => {
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
        return signedTransactionFromRow(row);
      });
    },

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
      return signedTransactionFromRow(row);
    },

    async markBroadcast({ hash, at }) {
      // Only a transaction still in 'signed' moves: re-broadcasts keep the first broadcast time.
      await db
        .updateTable('signed_transactions')
        .set({ status: 'broadcast', broadcast_at: (at ?? ctx.now()).getTime() })
        .where('hash', '=', lower(hash))
        .where('status', '=', 'signed')
        .execute();
    },
    markMined: ({ hash, status, at }) => setStatus(hash, status, { mined_at: (at ?? ctx.now()).getTime() }),
    markReplaced: (hash) => setStatus(hash, 'replaced'),

    async findByHash(hash) {
      const row = await db
        .selectFrom('signed_transactions')
        .selectAll()
        .where('hash', '=', lower(hash))
        .executeTakeFirst();
      return row && signedTransactionFromRow(row);
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
      return rows.map(signedTransactionFromRow);
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
      return rows.map(signedTransactionFromRow);
    },

    async listForIntent(intentId) {
      const rows = await db
        .selectFrom('signed_transactions')
        .selectAll()
        .where('intent_id', '=', lower(intentId))
        .orderBy('id')
        .execute();
      return rows.map(signedTransactionFromRow);
    },
  };
}
