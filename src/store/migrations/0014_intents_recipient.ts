/**
 * 0014: who an intent pays on the destination chain (`recipient_address`), for GetIntentHistory's
 * `byParticipantAddresses` (an intent's participants are its owner and its recipient). It is the quote's
 * `destinationToAddress`, lower case, and null when the request named none or named the owner: the owner is
 * matched by `owner_address` already. Intents stored before are filled in from their wire intent. The indexes
 * mirror 0003's owner indexes, so a participant's page is an index range scan for either sort column.
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Rows filled in per statement: bounded memory on a large table. */
const BACKFILL_BATCH = 500;

export function migration0014(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('intents').addColumn('recipient_address', 'text').execute();
      await backfill(db);
      await db.schema
        .createIndex('intents_project_recipient')
        .on('intents')
        .columns(['project_id', 'recipient_address', 'id'])
        .execute();
      await db.schema
        .createIndex('intents_project_recipient_created')
        .on('intents')
        .columns(['project_id', 'recipient_address', 'created_at', 'id'])
        .execute();
    },
  };
}

interface StoredRow {
  id: number;
  owner_address: string;
  intent_json: string;
}

async function backfill(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<StoredRow>`
      select id, owner_address, intent_json from intents
      where id > ${after} and intent_json like ${'%"destinationToAddress"%'}
      order by id limit ${BACKFILL_BATCH}`.execute(db);
    for (const row of rows) {
      const recipient = recipientOf(row);
      if (recipient)
        await sql`update intents set recipient_address = ${recipient} where id = ${row.id}`.execute(db);
    }
    if (rows.length < BACKFILL_BATCH) return;
    after = Number(rows.at(-1)!.id);
  }
}

/** Written out here, not imported: a shipped migration must not change when the code it once shared does. */
function recipientOf(row: StoredRow): string | undefined {
  const stored = JSON.parse(row.intent_json) as { quoteRequest?: { destinationToAddress?: unknown } };
  const to = stored.quoteRequest?.destinationToAddress;
  if (typeof to !== 'string' || to === '') return undefined;
  const lower = to.toLowerCase();
  return lower === row.owner_address.toLowerCase() ? undefined : lower;
}
