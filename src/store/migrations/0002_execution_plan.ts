/**
 * 0002: the execution plan beside the quoted intent. QuoteIntent writes the plan (src/intents/plan-codec.ts
 * text, bigints as decimal strings) and the engine reads it back to run the intent; nullable because intents
 * stored before this migration have none.
 */
import type { Kysely, Migration } from 'kysely';

export function migration0002(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('intents').addColumn('plan_json', 'text').execute();
    },
  };
}
