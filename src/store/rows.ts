/** Row ↔ record mapping: millis ↔ Date, amount text ↔ bigint, JSON text ↔ values. */
import type {
  AccessKeyRow,
  IntentRow,
  IntentStepRow,
  IntentTransactionRow,
  ProjectRow,
  SignedTransactionRow,
} from './schema.ts';
import type {
  AccessKey,
  IntentReceiptRecord,
  IntentRecord,
  IntentStatus,
  IntentStep,
  IntentTransactionRecord,
  Project,
  SignedTransaction,
  SignedTransactionStatus,
  StepState,
  TransactionKind,
  TransactionStatus,
} from './types.ts';

export function toDate(ms: number): Date;
export function toDate(ms: number | null): Date | null;
export function toDate(ms: number | null): Date | null {
  return ms === null ? null : new Date(Number(ms));
}

export function toMillis(date: Date): number;
export function toMillis(date: Date | null | undefined): number | null | undefined;
export function toMillis(date: Date | null | undefined): number | null | undefined {
  return date == null ? date : date.getTime();
}

/** Addresses and hashes are compared lowercase. */
export function lower(value: string): string;
export function lower(value: string | null | undefined): string | null | undefined;
export function lower(value: string | null | undefined): string | null | undefined {
  return value == null ? value : value.toLowerCase();
}

/**
 * The row when it belongs to `projectId`. The reads scoped to a project go by intent_id alone, the unique
 * index, and check the project on the row: with project_id in the WHERE clause a planner without statistics
 * (SQLite, which runs no ANALYZE; a Postgres table autovacuum has not analyzed yet, as a new database's) walks
 * a project index instead and filters every intent of the project.
 */
export function ofProject<R extends { project_id: number }>(
  row: R | undefined,
  projectId: number,
): R | undefined {
  return row && Number(row.project_id) === projectId ? row : undefined;
}

export function projectFromRow(row: ProjectRow): Project {
  return { id: row.id, name: row.name, createdAt: toDate(row.created_at) };
}

export function accessKeyFromRow(row: AccessKeyRow): AccessKey {
  return {
    id: row.id,
    projectId: row.project_id,
    prefix: row.prefix,
    label: row.label,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: toDate(row.created_at),
    revokedAt: toDate(row.revoked_at),
  };
}

/**
 * The record of an intent row, its wire intent (intent_json, several kB) parsed. The API's reads parse at
 * once: a getter and setter per record, and the text kept beside the parsed intent, took the
 * WaitIntentReceipt benchmark's peak from 256 to 355 MB (10,000 held calls).
 */
export function intentFromRow(row: IntentRow): IntentRecord {
  return { ...intentColumns(row), intent: JSON.parse(row.intent_json) };
}

/**
 * The same record with the wire intent parsed only when first read: for the engine, which reads the row
 * before every step and never looks at the intent, and for the record QuoteIntent's insert returns.
 */
export function lazyIntentFromRow(row: IntentRow): IntentRecord {
  let json: string | undefined = row.intent_json;
  let intent: unknown;
  return Object.defineProperty(intentColumns(row) as IntentRecord, 'intent', {
    enumerable: true,
    get() {
      if (json !== undefined) {
        intent = JSON.parse(json);
        json = undefined;
      }
      return intent;
    },
    set(value: unknown) {
      intent = value;
      json = undefined;
    },
  });
}

export function intentColumns(row: IntentRow): Omit<IntentRecord, 'intent'> {
  return {
    id: row.id,
    intentId: row.intent_id,
    projectId: row.project_id,
    status: row.status as IntentStatus,
    ownerAddress: row.owner_address,
    originChainId: row.origin_chain_id,
    destinationChainId: row.destination_chain_id,
    originIntentAddress: row.origin_intent_address,
    destinationIntentAddress: row.destination_intent_address,
    originTokenAddress: row.origin_token_address,
    originTokenAmount: BigInt(row.origin_token_amount),
    destinationTokenAddress: row.destination_token_address,
    destinationTokenAmount: BigInt(row.destination_token_amount),
    planJson: row.plan_json ?? null,
    quoteExpiresAt: toDate(row.quote_expires_at),
    committedAt: toDate(row.committed_at),
    executeDeadline: toDate(row.execute_deadline),
    depositTransactionHash: row.deposit_transaction_hash,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    startedAt: toDate(row.started_at),
    finishedAt: toDate(row.finished_at),
  };
}

export function transactionFromRow(row: IntentTransactionRow): IntentTransactionRecord {
  return {
    id: row.id,
    intentId: row.intent_id,
    kind: row.kind as TransactionKind,
    chainId: row.chain_id,
    fromAddress: row.from_address,
    toAddress: row.to_address,
    tokenAddress: row.token_address,
    tokenAmount: row.token_amount === null ? null : BigInt(row.token_amount),
    status: row.status as TransactionStatus,
    statusReason: row.status_reason,
    txnHash: row.txn_hash,
    calldata: row.calldata,
    minedAt: toDate(row.mined_at),
    meta: row.meta_json === null ? null : (JSON.parse(row.meta_json) as Record<string, unknown>),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function stepFromRow(row: IntentStepRow): IntentStep {
  return {
    id: row.id,
    intentId: row.intent_id,
    step: row.step,
    state: row.state as StepState,
    attempts: row.attempts,
    nextAttemptAt: toDate(row.next_attempt_at),
    lastError: row.last_error,
    leaseOwner: row.lease_owner,
    leaseUntil: toDate(row.lease_until),
    takenOverFrom: row.taken_over_from ?? null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function signedTransactionFromRow(row: SignedTransactionRow): SignedTransaction {
  return {
    id: row.id,
    chainId: row.chain_id,
    fromAddress: row.from_address,
    nonce: Number(row.nonce),
    raw: row.raw,
    hash: row.hash,
    purpose: row.purpose,
    intentId: row.intent_id,
    status: row.status as SignedTransactionStatus,
    createdAt: toDate(row.created_at),
    broadcastAt: toDate(row.broadcast_at),
    minedAt: toDate(row.mined_at),
  };
}

/** Groups an intent's transactions by kind (at most one per kind, by the table's unique key). */
export function byKind(transactions: IntentTransactionRecord[]): IntentReceiptRecord['transactions'] {
  const out: IntentReceiptRecord['transactions'] = {};
  for (const t of transactions) out[t.kind] = t;
  return out;
}
