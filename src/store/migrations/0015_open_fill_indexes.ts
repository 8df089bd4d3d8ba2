/**
 * 0015: the solver inventory's `held` read (solver-inventory.ts), run on every CommitIntent of a cross-chain
 * intent: the fill amounts of the COMMITTED and EXECUTING intents of one destination chain and token whose
 * fill has not landed.
 *
 * - `intents_open_fills`, partial: only row versions in those two statuses are in it, so it stays the size of
 *   the intents in flight (each intent adds an entry as it is committed and as it starts executing, none
 *   after), and the read is one range scan of the chain and token asked about. Before, the database combined
 *   `intents_status` (every version that was ever COMMITTED or EXECUTING, until vacuum) with
 *   `intents_destination_chain` (every intent of the chain). A broad index would add a write to every non-HOT
 *   update of `intents` for all statuses; this one is written for the two open ones only. The query names
 *   the statuses as literals, as the predicate does, so both databases can match it to the index.
 * - `signed_transactions_intent_purpose` (intent_id, purpose, status) replaces `signed_transactions_intent`
 *   (intent_id): the read's per-intent check for a landed fill is one index probe, where with only the
 *   intent's index (or stale statistics) Postgres combined it with `signed_transactions_status`, a scan of
 *   every mined transaction per open intent. Its leading column serves every read by intent as before, and
 *   the table keeps the same number of indexes.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export function migration0015(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('intents_open_fills')
        .on('intents')
        .columns(['destination_chain_id', 'fill_token_address'])
        .where(sql<boolean>`status in ('COMMITTED', 'EXECUTING') and fill_token_address is not null`)
        .execute();
      await db.schema
        .createIndex('signed_transactions_intent_purpose')
        .on('signed_transactions')
        .columns(['intent_id', 'purpose', 'status'])
        .execute();
      await db.schema.dropIndex('signed_transactions_intent').execute();
    },
  };
}
