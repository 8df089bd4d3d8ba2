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
 *
 * A receipt row given with the send (`withRecord`: the engine's RELAYING row with the new hash) moves in the
 * same statement, only when the transaction was recorded, with its NOTIFY: one round trip fewer per send.
 */
import type { Kysely } from 'kysely';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { compiled, EMPTY, pg } from './pg-sql.ts';
import { movedRowColumnsPg, rowAdvancePg } from './pg-write-parts.ts';
import { lower } from './rows.ts';
import type { Database, SignedTransactionRow } from './schema.ts';
import type { RowAdvance, SignedTransaction, SignTransactionInput } from './types.ts';

type AllocateInput = SignTransactionInput<RowAdvance>;

/** Signings with a stale expected nonce before the transactional path takes over: each costs a signature. */
const MAX_OPTIMISTIC_ATTEMPTS = 3;

export interface PgAllocateAndRecordDeps {
  db: Kysely<Database>;
  now: () => number;
  fromRow: (row: SignedTransactionRow) => SignedTransaction;
  /** The transactional allocation, used when the next nonce is not known here. */
  fallback: (input: AllocateInput) => Promise<SignedTransaction>;
  /** The store's in-write NOTIFY (Postgres): a receipt row that moves in the statement announces itself. */
  notifications: WriteNotifications | undefined;
}

export function createPgAllocateAndRecord(deps: PgAllocateAndRecordDeps) {
  /** The next nonce this process expects per `chain:address`, as it last left the row. */
  const expected = new Map<string, number>();
  /** The tail of each key's queue of sends. */
  const queues = new Map<string, Promise<unknown>>();

  async function allocate(key: string, input: AllocateInput): Promise<SignedTransaction> {
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
    input: AllocateInput,
    nonce: number,
    floor: number,
    signed: { raw: string; hash: string },
  ): Promise<{ recorded: SignedTransactionRow } | { storedNext: number | undefined }> {
    const now = deps.now();
    const address = lower(input.fromAddress);
    const row = input.withRecord?.(signed.hash);
    const notifications = deps.notifications;
    if (row && !notifications) throw new Error('a receipt row with the record needs in-write notifications');
    // Written only from "recorded": a nonce not taken leaves no row naming a hash never recorded.
    const moved =
      row && notifications
        ? pg`, "moved_row" as (${rowAdvancePg(row, now, { onlyWith: 'recorded' })})`
        : EMPTY;
    const movedColumns = row && notifications ? pg`, ${movedRowColumnsPg(notifications)}` : EMPTY;
    // The outer SELECT keeps one row when the nonce was not taken, to answer the stored next nonce.
    const { rows } = await deps.db.executeQuery<
      SignedTransactionRow & { stored_next: number | null; row_moved?: number }
    >(
      compiled(pg`with "taken" as (
  update "nonces" set "next_nonce" = ${nonce + 1}, "updated_at" = ${now}
  where "chain_id" = ${input.chainId} and "address" = ${address} and greatest("next_nonce", ${floor}::bigint) = ${nonce}
  returning 1
), "recorded" as (
  insert into "signed_transactions" ("chain_id", "from_address", "nonce", "raw", "hash", "purpose", "intent_id", "status", "created_at", "broadcast_at", "mined_at")
  select ${input.chainId}, ${address}, ${nonce}, ${signed.raw}, ${lower(signed.hash)}, ${input.purpose}, ${lower(input.intentId) ?? null}, 'signed', ${now}, null, null
  from "taken"
  returning *
)${moved}
select "recorded".*, (select "next_nonce" from "nonces" where "chain_id" = ${input.chainId} and "address" = ${address}) as "stored_next"${movedColumns}
from (select 1) as "one" left join "recorded" on true`),
    );
    const answer = rows[0];
    if (row && (answer?.row_moved ?? 0) > 0) notifications?.deliver(lower(row.intentId));
    if (answer && answer.id !== null) return { recorded: answer };
    return { storedNext: answer?.stored_next ?? undefined };
  }

  return (input: AllocateInput): Promise<SignedTransaction> => {
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
