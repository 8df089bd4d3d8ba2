/**
 * The database as Kysely sees it: one interface per table, columns in snake_case exactly as created
 * by the migrations. Nothing outside `src/store/` imports these; the rest of the service sees the
 * camelCase records of `types.ts`.
 *
 * Column conventions (both dialects):
 * - timestamps are integer milliseconds since the Unix epoch (BIGINT / INTEGER), so ordering and
 *   keyset pagination compare exact integers on both databases;
 * - token amounts are `numeric(78,0)` on Postgres and TEXT on SQLite; both arrive here as decimal
 *   strings and become bigint in the row mappers;
 * - addresses and hashes are stored lowercase, so lookups are plain equality on an index;
 * - JSON documents (the quoted intent) are TEXT on both, kept byte for byte as written.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

/** Amount columns: `numeric(78,0)` (Postgres, read back as a string) or TEXT (SQLite). */
export type AmountColumn = string;
/** Milliseconds since the epoch. */
export type MillisColumn = number;

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  created_at: MillisColumn;
}

export interface AccessKeysTable {
  id: Generated<number>;
  project_id: number;
  key_hash: string;
  prefix: string;
  label: string | null;
  rate_limit_per_minute: number;
  created_at: MillisColumn;
  revoked_at: MillisColumn | null;
}

export interface IntentsTable {
  id: Generated<number>;
  intent_id: string;
  project_id: number;
  status: string;
  owner_address: string;
  origin_chain_id: number;
  destination_chain_id: number;
  origin_intent_address: string;
  destination_intent_address: string;
  origin_token_address: string;
  origin_token_amount: AmountColumn;
  destination_token_address: string;
  destination_token_amount: AmountColumn;
  intent_json: string;
  /** The execution plan (0002); null for intents stored before it. */
  plan_json: string | null;
  quote_expires_at: MillisColumn;
  committed_at: MillisColumn | null;
  execute_deadline: MillisColumn | null;
  deposit_transaction_hash: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
  started_at: MillisColumn | null;
  finished_at: MillisColumn | null;
  /** What the solver fills on the destination chain and is repaid on the origin chain (0007; null: none). */
  fill_token_address: string | null;
  fill_amount: AmountColumn | null;
  repayment_token_address: string | null;
  repayment_amount: AmountColumn | null;
  /** Who the intent pays on the destination chain when not its owner (0014; null: the owner). */
  recipient_address: string | null;
}

export interface IntentTransactionsTable {
  id: Generated<number>;
  intent_id: string;
  kind: string;
  chain_id: number;
  from_address: string | null;
  to_address: string | null;
  token_address: string | null;
  token_amount: AmountColumn | null;
  status: string;
  status_reason: string | null;
  txn_hash: string | null;
  calldata: string | null;
  mined_at: MillisColumn | null;
  meta_json: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

export interface IntentStepsTable {
  id: Generated<number>;
  intent_id: string;
  step: string;
  state: string;
  attempts: number;
  next_attempt_at: MillisColumn;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: MillisColumn | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
  /** The worker whose expired lease the last lease replaced (migration 0013); null otherwise. */
  taken_over_from: Generated<string | null>;
}

export interface NoncesTable {
  chain_id: number;
  address: string;
  next_nonce: number;
  updated_at: MillisColumn;
}

export interface SignedTransactionsTable {
  id: Generated<number>;
  chain_id: number;
  from_address: string;
  nonce: number;
  raw: string;
  hash: string;
  purpose: string;
  intent_id: string | null;
  status: string;
  created_at: MillisColumn;
  broadcast_at: MillisColumn | null;
  mined_at: MillisColumn | null;
  /** Block number and index in it of the mined transaction (migration 0004; null before it). */
  mined_block: Generated<number | string | null>;
  mined_index: Generated<number | null>;
}

export interface TaskLeasesTable {
  task: string;
  owner: string;
  lease_until: MillisColumn;
}

/** Each project's last event number (migration 0009). */
export interface EventSequencesTable {
  project_id: number;
  last_seq: number;
}

/** The event log (migration 0009), written only by the database's triggers. */
export interface IntentEventsTable {
  project_id: number;
  seq: number;
  intent_id: string;
  owner_address: string;
  transaction_kind: string | null;
  status: string;
  deposit_status: string;
  origin_status: string;
  destination_status: string;
  refund_status: string | null;
  chain_id: number | null;
  txn_hash: string | null;
  created_at: MillisColumn;
}

/** Webhook endpoints (migration 0010). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  project_id: number;
  url: string;
  /**
   * `whsec_…` as given, or `enc:v2:<iv>.<ciphertext>.<tag>` (bound to this row) when written under
   * WEBHOOK_SECRETS_KEY; `enc:v1:…` (unbound) from earlier releases until `webhooks encrypt-secrets`.
   */
  secret: string;
  /** `*`, or a comma-separated list of event types and `prefix.*` patterns. */
  event_types: string;
  state: string;
  /** The last event number handled: delivered, or not one the endpoint subscribes to. */
  handled_seq: number;
  attempts: number;
  failing_since: MillisColumn | null;
  next_attempt_at: MillisColumn;
  lease_owner: string | null;
  lease_until: MillisColumn | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

/** One webhook delivery attempt (migration 0010). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_seq: number;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  created_at: MillisColumn;
}

export interface Database {
  projects: ProjectsTable;
  access_keys: AccessKeysTable;
  intents: IntentsTable;
  intent_transactions: IntentTransactionsTable;
  intent_steps: IntentStepsTable;
  nonces: NoncesTable;
  signed_transactions: SignedTransactionsTable;
  task_leases: TaskLeasesTable;
  event_sequences: EventSequencesTable;
  intent_events: IntentEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type IntentRow = Selectable<IntentsTable>;
export type IntentInsert = Insertable<IntentsTable>;
export type IntentTransactionRow = Selectable<IntentTransactionsTable>;
export type IntentStepRow = Selectable<IntentStepsTable>;
export type SignedTransactionRow = Selectable<SignedTransactionsTable>;
export type AccessKeyRow = Selectable<AccessKeysTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type IntentEventRow = Selectable<IntentEventsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Every column of `intents` but the execution plan, which only the engine and a few services decode. */
export const INTENT_COLUMNS_BUT_PLAN = [
  'id',
  'intent_id',
  'project_id',
  'status',
  'owner_address',
  'origin_chain_id',
  'destination_chain_id',
  'origin_intent_address',
  'destination_intent_address',
  'origin_token_address',
  'origin_token_amount',
  'destination_token_address',
  'destination_token_amount',
  'intent_json',
  'quote_expires_at',
  'committed_at',
  'execute_deadline',
  'deposit_transaction_hash',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
] as const satisfies readonly Exclude<keyof IntentRow, 'plan_json'>[];

/** The same without the wire intent's text: a receipt read whose fields are already picked (receipt-fields.ts). */
export const INTENT_COLUMNS_BUT_DOCUMENTS = INTENT_COLUMNS_BUT_PLAN.filter(
  (c): c is Exclude<(typeof INTENT_COLUMNS_BUT_PLAN)[number], 'intent_json'> => c !== 'intent_json',
);
