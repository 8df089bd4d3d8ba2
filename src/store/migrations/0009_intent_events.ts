/**
 * 0009: the durable event log. One `intent_events` row per change of an intent's status or of a receipt
 * row's status, numbered per project (`seq`: 1, 2, 3… in commit order), with the intent's status and
 * receipt states as they stood after the change. The event stream (GET /events) resumes from it and the
 * webhook dispatcher delivers from it.
 *
 * The rows are written by triggers on `intents` and `intent_transactions`, so an event is part of the very
 * statement that makes the change: same transaction, no extra round trip, and no writer (the engine, the
 * API, a future one) can change a status without its event.
 *
 * `event_sequences` holds each project's last number. Taking the next number locks that project's row
 * until the writing transaction commits, so a project's events commit in number order: a reader that has
 * seen event n has seen every event before it, and one reading "after n" never skips a later commit.
 * The states are read after the lock is taken, so they include every earlier event's change.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectProfile } from '../capabilities.ts';

export function migration0009(profile: DialectProfile): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('event_sequences')
        .addColumn('project_id', 'integer', (col) => col.primaryKey())
        .addColumn('last_seq', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('intent_events')
        .addColumn('project_id', 'integer', (col) => col.notNull())
        .addColumn('seq', 'bigint', (col) => col.notNull())
        .addColumn('intent_id', 'text', (col) => col.notNull())
        .addColumn('owner_address', 'text', (col) => col.notNull())
        // Null for a change of the intent's status; otherwise the receipt row that changed.
        .addColumn('transaction_kind', 'text')
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('deposit_status', 'text', (col) => col.notNull())
        .addColumn('origin_status', 'text', (col) => col.notNull())
        .addColumn('destination_status', 'text', (col) => col.notNull())
        .addColumn('refund_status', 'text')
        .addColumn('chain_id', 'integer')
        .addColumn('txn_hash', 'text')
        .addColumn('created_at', profile.columns.millis, (col) => col.notNull())
        .addPrimaryKeyConstraint('intent_events_pk', ['project_id', 'seq'])
        .$call((table) => (profile.keyOrderedTable ? table.modifyEnd(profile.keyOrderedTable) : table))
        .execute();
      const statements = profile.triggers === 'function' ? postgresTriggers() : sqliteTriggers();
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}

const EVENT_COLUMNS = `project_id, seq, intent_id, owner_address, transaction_kind, status, deposit_status,
  origin_status, destination_status, refund_status, chain_id, txn_hash, created_at`;

/** The receipt rows' statuses of intent `id` as one row (d, o, x, r), absent rows null. */
const STATES_OF = (id: string, filter: (kind: string) => string) => `(SELECT
    ${filter('deposit')} AS d, ${filter('origin')} AS o, ${filter('destination')} AS x, ${filter('refund')} AS r
  FROM intent_transactions WHERE intent_id = ${id}) t`;

/** Which transaction writes are events: a status change, or a row whose appearance changes the states. */
const TRANSACTION_INSERT_IS_EVENT = `NEW.status <> 'UNKNOWN' OR NEW.kind = 'refund'`;

function postgresTriggers(): string[] {
  const pgFilter = (kind: string) => `max(status) FILTER (WHERE kind = '${kind}')`;
  return [
    `CREATE FUNCTION switchyard_append_intent_event(
       p_project integer, p_intent text, p_kind text, p_chain integer, p_hash text, p_at bigint
     ) RETURNS void LANGUAGE plpgsql AS $$
     DECLARE v_seq bigint;
     BEGIN
       INSERT INTO event_sequences AS s (project_id, last_seq) VALUES (p_project, 1)
         ON CONFLICT (project_id) DO UPDATE SET last_seq = s.last_seq + 1
         RETURNING s.last_seq INTO v_seq;
       -- A new statement, so a new snapshot taken after the lock: it holds every earlier event's change.
       INSERT INTO intent_events (${EVENT_COLUMNS})
         SELECT p_project, v_seq, i.intent_id, i.owner_address, p_kind, i.status, coalesce(t.d, 'UNKNOWN'),
           coalesce(t.o, 'UNKNOWN'), coalesce(t.x, 'UNKNOWN'), t.r, p_chain, p_hash, p_at
         FROM intents i, ${STATES_OF('p_intent', pgFilter)}
         WHERE i.intent_id = p_intent;
     END $$`,
    `CREATE FUNCTION switchyard_intent_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM switchyard_append_intent_event(NEW.project_id, NEW.intent_id, NULL, NULL, NULL, NEW.updated_at);
       RETURN NULL;
     END $$`,
    `CREATE FUNCTION switchyard_transaction_event() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE v_project integer;
     BEGIN
       SELECT project_id INTO v_project FROM intents WHERE intent_id = NEW.intent_id;
       IF v_project IS NOT NULL THEN
         PERFORM switchyard_append_intent_event(
           v_project, NEW.intent_id, NEW.kind, NEW.chain_id, NEW.txn_hash, NEW.updated_at);
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER intents_status_event AFTER UPDATE OF status ON intents FOR EACH ROW
     WHEN (OLD.status <> NEW.status) EXECUTE FUNCTION switchyard_intent_status_event()`,
    `CREATE TRIGGER intent_transactions_insert_event AFTER INSERT ON intent_transactions FOR EACH ROW
     WHEN (${TRANSACTION_INSERT_IS_EVENT}) EXECUTE FUNCTION switchyard_transaction_event()`,
    `CREATE TRIGGER intent_transactions_status_event AFTER UPDATE OF status ON intent_transactions
     FOR EACH ROW WHEN (OLD.status <> NEW.status) EXECUTE FUNCTION switchyard_transaction_event()`,
  ];
}

function sqliteTriggers(): string[] {
  const sqliteFilter = (kind: string) => `max(CASE WHEN kind = '${kind}' THEN status END)`;
  // SQLite has one writer at a time, so the number and the states are taken inside its write lock anyway.
  const append = (kind: string, chain: string, hash: string) => `
    INSERT INTO event_sequences (project_id, last_seq)
      SELECT project_id, 1 FROM intents WHERE intent_id = NEW.intent_id
      ON CONFLICT (project_id) DO UPDATE SET last_seq = last_seq + 1;
    INSERT INTO intent_events (${EVENT_COLUMNS})
      SELECT i.project_id, s.last_seq, i.intent_id, i.owner_address, ${kind}, i.status,
        coalesce(t.d, 'UNKNOWN'), coalesce(t.o, 'UNKNOWN'), coalesce(t.x, 'UNKNOWN'), t.r, ${chain}, ${hash},
        NEW.updated_at
      FROM intents i JOIN event_sequences s ON s.project_id = i.project_id,
        ${STATES_OF('NEW.intent_id', sqliteFilter)}
      WHERE i.intent_id = NEW.intent_id;`;
  const transactionEvent = append('NEW.kind', 'NEW.chain_id', 'NEW.txn_hash');
  return [
    `CREATE TRIGGER intents_status_event AFTER UPDATE OF status ON intents
     WHEN OLD.status <> NEW.status BEGIN ${append('NULL', 'NULL', 'NULL')} END`,
    `CREATE TRIGGER intent_transactions_insert_event AFTER INSERT ON intent_transactions
     WHEN ${TRANSACTION_INSERT_IS_EVENT} BEGIN ${transactionEvent} END`,
    `CREATE TRIGGER intent_transactions_status_event AFTER UPDATE OF status ON intent_transactions
     WHEN OLD.status <> NEW.status BEGIN ${transactionEvent} END`,
  ];
}
