/**
 * A send's nonce and its signed transaction on Postgres in one statement. The transaction it replaces held
 * the nonce row locked over four round trips (BEGIN, the nonce upsert, the insert after signing, COMMIT), and
 * every send of a key on a chain queued behind that lock. Here the process signs first, with the nonce it
 * expects, and one data-modifying WITH takes that nonce only if it is still the next one (the stored next
 * nonce, or the chain's floor when that is higher) and records the transaction with it. A statement is atomic
 * by itself: the nonce is never taken without its transaction on record, and a failed signing takes none.
 *
 * The expected nonce is what this process last left in the row. Another process (or `nonces.allocate`) may
 * have moved it since: then nothing is written, the statement answers the stored value, and the transaction
 * is signed again with it. Sends of one key are taken one at a time in the process, so they never race each
 * other for a nonce. The first send of a key in a process, or one that keeps losing the race, takes the
 * transactional path (`fallback`), which also creates the row.
 */
import { type Kysely, sql } from 'kysely';
import { lower } from './rows.ts';
import type { Database, SignedTransactionRow } from './schema.ts';
import type { SignedTransaction, SignTransactionInput } from './types.ts';

/** Signings with a stale expected nonce before the transactional path takes over: each costs a signature. */
const MAX_OPTIMISTIC_ATTEMPTS = 3;

export interface PgAllocateAndRecordDeps {
  db: Kysely<Database>;
  now: () => number;
  fromRow: (row: SignedTransactionRow) => SignedTransaction;
  /** The transactional allocation, used when the next nonce is not known here. */
  fallback: (input: SignTransactionInput) => Promise<SignedTransaction>;
}

export function createPgAllocateAndRecord(deps: PgAllocateAndRecordDeps) {
  /** The next nonce this process expects per `chain:address`, as it last left the row. */
  const expected = new Map<string, number>();
  /** The tail of each key's queue of sends. */
  const queues = new Map<string, Promise<unknown>>();

  async function allocate(key: string, input: SignTransactionInput): Promise<SignedTransaction> {
    const floor = input.nonceFloor ?? 0;
    let next = expected.get(key);
    for (let attempt = 0; next !== undefined && attempt < MAX_OPTIMISTIC_ATTEMPTS; attempt++) {
      const nonce = Math.max(next, floor);
      const signed = await input.sign(nonce);
      const outcome = await takeAndRecord(input, nonce, floor, signed);
      if ('recorded' in outcome) {
        expected.set(key, nonce + 1);
        return deps.fromRow(outcome.recorded);
      }
      next = outcome.storedNext;
    }
    const recorded = await deps.fallback(input);
    expected.set(key, recorded.nonce + 1);
    return recorded;
  }

  async function takeAndRecord(
    input: SignTransactionInput,
    nonce: number,
    floor: number,
    signed: { raw: string; hash: string },
  ): Promise<{ recorded: SignedTransactionRow } | { storedNext: number | undefined }> {
    const now = deps.now();
    const address = lower(input.fromAddress);
    // The outer SELECT keeps one row when the nonce was not taken, to answer the stored next nonce.
    const { rows } = await sql<SignedTransactionRow & { stored_next: number | null }>`with "taken" as (
  update "nonces" set "next_nonce" = ${nonce + 1}, "updated_at" = ${now}
  where "chain_id" = ${input.chainId} and "address" = ${address} and greatest("next_nonce", ${floor}::bigint) = ${nonce}
  returning 1
), "recorded" as (
  insert into "signed_transactions" ("chain_id", "from_address", "nonce", "raw", "hash", "purpose", "intent_id", "status", "created_at", "broadcast_at", "mined_at")
  select ${input.chainId}, ${address}, ${nonce}, ${signed.raw}, ${lower(signed.hash)}, ${input.purpose}, ${lower(input.intentId) ?? null}, 'signed', ${now}, null, null
  from "taken"
  returning *
)
select "recorded".*, (select "next_nonce" from "nonces" where "chain_id" = ${input.chainId} and "address" = ${address}) as "stored_next"
from (select 1) as "one" left join "recorded" on true`.execute(deps.db);
    const row = rows[0];
    if (row && row.id !== null) return { recorded: row };
    return { storedNext: row?.stored_next ?? undefined };
  }

  return (input: SignTransactionInput): Promise<SignedTransaction> => {
    const key = `${input.chainId}:${lower(input.fromAddress)}`;
    const previous = queues.get(key) ?? Promise.resolve();
    const mine = previous.then(() => allocate(key, input));
    const tail = mine.catch(() => undefined);
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return mine;
  };
}
