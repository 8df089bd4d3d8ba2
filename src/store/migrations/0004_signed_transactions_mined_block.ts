/**
 * 0004: where each journaled transaction was mined (block number, index in the block). A chain that comes
 * back behind loses transactions of several keys; they are sent again in the order they were first mined
 * (src/chains/restore-lost-transactions.ts), which `mined_at` (our clock when the depth was reached, written
 * by concurrent steps) cannot tell within a block or across keys. Nullable: rows mined before this
 * migration have none, and a row not mined yet has none.
 */
import type { Kysely, Migration } from 'kysely';

export function migration0004(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('signed_transactions').addColumn('mined_block', 'bigint').execute();
      await db.schema.alterTable('signed_transactions').addColumn('mined_index', 'integer').execute();
    },
  };
}
