/**
 * 0016 (Postgres): the store's large text values are compressed with lz4 instead of pglz. Postgres compresses
 * a row's values when the row passes ~2 kB: an intent's wire intent (~13 kB of JSON) and execution plan
 * (~6 kB) at every quote, and the signed transactions' hex (2–10 kB for the executions and settlement
 * batches) at every send, then decompresses them at every read of the row. With pglz those calls were ~10 %
 * of the server's CPU in `bench:e2e` (perf, the Postgres backends), most of it compressing; lz4 does the same
 * work several times faster at a similar size for this hex and JSON.
 *
 * A server built without lz4 (`--with-lz4`, which Debian's and the common builds have) refuses the setting
 * with `feature_not_supported`; the migration then leaves pglz in place, since the choice changes cost, not
 * behaviour. Values already stored keep the method they were written with, and reads handle both. SQLite
 * compresses nothing: nothing to do there.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectProfile } from '../capabilities.ts';

/** The columns whose values pass Postgres' compression threshold in service, as `table.column`. */
export const LZ4_COLUMNS = [
  ['intents', 'intent_json'],
  ['intents', 'plan_json'],
  ['signed_transactions', 'raw'],
] as const;

export function migration0016(profile: DialectProfile): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (profile.capabilities.dialect !== 'postgres') return;
      const alters = LZ4_COLUMNS.map(
        ([table, column]) => `ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION lz4;`,
      );
      // One block, so a server without lz4 skips every column alike and the migration's transaction survives.
      await sql
        .raw(`DO $$ BEGIN ${alters.join(' ')} EXCEPTION WHEN feature_not_supported THEN NULL; END $$`)
        .execute(db);
    },
  };
}
