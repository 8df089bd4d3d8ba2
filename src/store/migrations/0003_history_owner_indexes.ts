/**
 * 0003: GetIntentHistory's commonest query is one wallet's intents in a project, newest first. With
 * only (project_id, id) the database walks the whole project backwards to find an owner's page (1 row
 * in 1,000 matches at 100,000 intents and 1,000 owners: ~20,000 rows per page, tens of ms); these make
 * it an index range scan of exactly the page, for either sort column.
 */
import type { Kysely, Migration } from 'kysely';

export function migration0003(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('intents_project_owner')
        .on('intents')
        .columns(['project_id', 'owner_address', 'id'])
        .execute();
      await db.schema
        .createIndex('intents_project_owner_created')
        .on('intents')
        .columns(['project_id', 'owner_address', 'created_at', 'id'])
        .execute();
    },
  };
}
