/**
 * 0001: the whole schema of the first release. Shipped migrations are never edited; a change is a
 * new numbered file (see docs/storage.md).
 */
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from '../capabilities.ts';

export function migration0001(c: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await createProjectsAndKeys(db, c);
      await createIntents(db, c);
      await createIntentTransactions(db, c);
      await createEngineTables(db, c);
    },
  };
}

async function createProjectsAndKeys(db: Kysely<unknown>, c: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('access_keys')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('project_id', 'integer', (col) => col.notNull().references('projects.id'))
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('prefix', 'text', (col) => col.notNull().unique())
    .addColumn('label', 'text')
    .addColumn('rate_limit_per_minute', 'integer', (col) => col.notNull())
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .addColumn('revoked_at', c.millis)
    .execute();
  await db.schema
    .createIndex('access_keys_project')
    .on('access_keys')
    .columns(['project_id', 'id'])
    .execute();
}

async function createIntents(db: Kysely<unknown>, c: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('intents')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('intent_id', 'text', (col) => col.notNull().unique())
    .addColumn('project_id', 'integer', (col) => col.notNull().references('projects.id'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('owner_address', 'text', (col) => col.notNull())
    .addColumn('origin_chain_id', 'integer', (col) => col.notNull())
    .addColumn('destination_chain_id', 'integer', (col) => col.notNull())
    .addColumn('origin_intent_address', 'text', (col) => col.notNull())
    .addColumn('destination_intent_address', 'text', (col) => col.notNull())
    .addColumn('origin_token_address', 'text', (col) => col.notNull())
    .addColumn('origin_token_amount', c.amount, (col) => col.notNull())
    .addColumn('destination_token_address', 'text', (col) => col.notNull())
    .addColumn('destination_token_amount', c.amount, (col) => col.notNull())
    .addColumn('intent_json', 'text', (col) => col.notNull())
    .addColumn('quote_expires_at', c.millis, (col) => col.notNull())
    .addColumn('committed_at', c.millis)
    .addColumn('execute_deadline', c.millis)
    .addColumn('deposit_transaction_hash', 'text')
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .addColumn('updated_at', c.millis, (col) => col.notNull())
    .addColumn('started_at', c.millis)
    .addColumn('finished_at', c.millis)
    .execute();

  // Every API read is scoped to a project, so the project leads each index; the trailing `id`
  // makes keyset pagination (by id, or by created_at then id) an index range scan.
  const indexes: [string, string[]][] = [
    ['intents_project_id', ['project_id', 'id']],
    ['intents_project_created', ['project_id', 'created_at', 'id']],
    ['intents_owner', ['owner_address', 'created_at']],
    ['intents_origin_address', ['origin_intent_address']],
    ['intents_destination_address', ['destination_intent_address']],
    ['intents_status', ['status', 'id']],
    ['intents_origin_chain', ['origin_chain_id', 'created_at']],
    ['intents_destination_chain', ['destination_chain_id', 'created_at']],
    ['intents_deposit_hash', ['deposit_transaction_hash']],
    ['intents_created', ['created_at', 'id']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('intents').columns(columns).execute();
  }
}

async function createIntentTransactions(db: Kysely<unknown>, c: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('intent_transactions')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('intent_id', 'text', (col) => col.notNull().references('intents.intent_id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('chain_id', 'integer', (col) => col.notNull())
    .addColumn('from_address', 'text')
    .addColumn('to_address', 'text')
    .addColumn('token_address', 'text')
    .addColumn('token_amount', c.amount)
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('txn_hash', 'text')
    .addColumn('calldata', 'text')
    .addColumn('mined_at', c.millis)
    .addColumn('meta_json', 'text')
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .addColumn('updated_at', c.millis, (col) => col.notNull())
    .addUniqueConstraint('intent_transactions_intent_kind', ['intent_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('intent_transactions_hash')
    .on('intent_transactions')
    .column('txn_hash')
    .execute();
}

async function createEngineTables(db: Kysely<unknown>, c: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('intent_steps')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('intent_id', 'text', (col) => col.notNull().references('intents.intent_id'))
    .addColumn('step', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', c.millis, (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', c.millis)
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .addColumn('updated_at', c.millis, (col) => col.notNull())
    .addUniqueConstraint('intent_steps_intent_step', ['intent_id', 'step'])
    .execute();
  await db.schema
    .createIndex('intent_steps_due')
    .on('intent_steps')
    .columns(['state', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('nonces')
    .addColumn('chain_id', 'integer', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('next_nonce', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', c.millis, (col) => col.notNull())
    .addPrimaryKeyConstraint('nonces_pk', ['chain_id', 'address'])
    .execute();

  await db.schema
    .createTable('signed_transactions')
    .addColumn('id', c.serial, (col) => col.primaryKey())
    .addColumn('chain_id', 'integer', (col) => col.notNull())
    .addColumn('from_address', 'text', (col) => col.notNull())
    .addColumn('nonce', 'bigint', (col) => col.notNull())
    .addColumn('raw', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('intent_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', c.millis, (col) => col.notNull())
    .addColumn('broadcast_at', c.millis)
    .addColumn('mined_at', c.millis)
    .execute();
  await db.schema
    .createIndex('signed_transactions_sender')
    .on('signed_transactions')
    .columns(['chain_id', 'from_address', 'nonce'])
    .execute();
  await db.schema
    .createIndex('signed_transactions_intent')
    .on('signed_transactions')
    .column('intent_id')
    .execute();
  await db.schema
    .createIndex('signed_transactions_status')
    .on('signed_transactions')
    .column('status')
    .execute();
}
