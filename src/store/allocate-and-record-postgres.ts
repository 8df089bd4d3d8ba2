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
 *
 * The sends of a key that queue while its statement is in flight go together when it ends: signed with
 * consecutive nonces and recorded in one statement (record-sends-postgres.ts, which records a lone send too),
 * up to MAX_SENDS_PER_STATEMENT. One at a time, each waited a round trip behind the one before (~12 ms from
 * signing to the answer in a loaded `bench:e2e --db postgres` run, where about one send in six queued), so a
 * key's send rate was bounded by one statement's round trip. A statement the server refuses wrote nothing:
 * its sends are then recorded one at a time, so one send's bad write fails that send alone; a lost
 * connection fails them all (each step reads its journal before it signs again).
 */
import type { Kysely } from 'kysely';
import { DatabaseUnavailableError } from './errors.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { mapDatabaseError } from './map-database-error.ts';
import { type RecordedSends, recordSends, type SignedSend } from './record-sends-postgres.ts';
import { lower } from './rows.ts';
import type { Database, SignedTransactionRow } from './schema.ts';
import type { RowAdvance, SignedTransaction, SignTransactionInput } from './types.ts';

type AllocateInput = SignTransactionInput<RowAdvance>;

/** Signings with a stale expected nonce before the transactional path takes over: each costs a signature. */
const MAX_OPTIMISTIC_ATTEMPTS = 3;
/** Sends of one key in one statement at most: the engine's 16 step slots rarely queue more on one key. */
const MAX_SENDS_PER_STATEMENT = 16;

/** A send waiting for its key's statement. */
interface Queued {
  input: AllocateInput;
  resolve(recorded: SignedTransaction): void;
  reject(error: unknown): void;
}

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
  /** Per key with a statement in flight, the sends that arrived since: they go together next. */
  const waiting = new Map<string, Queued[]>();

  async function allocate(key: string, input: AllocateInput): Promise<SignedTransaction> {
    const floor = input.nonceFloor ?? 0;
    let next = expected.get(key);
    for (let attempt = 0; next !== undefined && attempt < MAX_OPTIMISTIC_ATTEMPTS; attempt++) {
      const nonce = Math.max(next, floor);
      const signed = await input.sign(nonce);
      const outcome = await recordSends(deps.db, deps.notifications, [{ input, nonce, signed }], {
        chainId: input.chainId,
        address: lower(input.fromAddress),
        first: nonce,
        floor,
        now: deps.now(),
      });
      if ('recorded' in outcome) {
        expected.set(key, nonce + 1);
        return deps.fromRow(outcome.recorded[0]!);
      }
      next = outcome.storedNext;
    }
    const recorded = await deps.fallback(input);
    expected.set(key, recorded.nonce + 1);
    return recorded;
  }

  /** Sends one at a time, each settled with its own outcome. */
  async function oneByOne(key: string, sends: readonly Queued[]): Promise<void> {
    for (const send of sends) await allocate(key, send.input).then(send.resolve, send.reject);
  }

  /**
   * Signs each send with the next nonce from `first`, in order; a send whose signing fails is rejected and
   * takes no nonce.
   */
  async function signInOrder(sends: readonly Queued[], first: number) {
    const signed: (SignedSend & { send: Queued })[] = [];
    for (const send of sends) {
      const nonce = first + signed.length;
      try {
        signed.push({ send, input: send.input, nonce, signed: await send.input.sign(nonce) });
      } catch (error) {
        send.reject(error);
      }
    }
    return signed;
  }

  /** Two sends or more, the key's next nonce known: one statement for all, while it is not stale. */
  async function together(key: string, sends: readonly Queued[], known: number): Promise<void> {
    const [chainId, address] = [sends[0]!.input.chainId, lower(sends[0]!.input.fromAddress)];
    const floor = Math.max(...sends.map((send) => send.input.nonceFloor ?? 0));
    let next: number | undefined = known;
    let live = sends;
    for (let attempt = 0; next !== undefined && attempt < MAX_OPTIMISTIC_ATTEMPTS; attempt++) {
      const first = Math.max(next, floor);
      const signed = await signInOrder(live, first);
      live = signed.map((s) => s.send);
      if (signed.length === 0) return;
      let outcome: RecordedSends;
      try {
        outcome = await recordSends(deps.db, deps.notifications, signed, {
          chainId,
          address,
          first,
          floor,
          now: deps.now(),
        });
      } catch (error) {
        if (mapDatabaseError(error) instanceof DatabaseUnavailableError)
          for (const send of live) send.reject(error);
        else await oneByOne(key, live);
        return;
      }
      if ('recorded' in outcome) {
        expected.set(key, first + signed.length);
        // In nonce order, as signed.
        for (const [i, { send }] of signed.entries()) send.resolve(deps.fromRow(outcome.recorded[i]!));
        return;
      }
      next = outcome.storedNext;
    }
    await oneByOne(key, live);
  }

  /** Records the sends that queued on a key, in order; never throws (each send is settled). */
  async function drain(key: string, sends: Queued[]): Promise<void> {
    let batch = sends;
    while (batch.length > 0) {
      const known = expected.get(key);
      try {
        if (batch.length === 1 || known === undefined) {
          // A lone send, or the key's first in this process (its row may not exist: the transactional path).
          await oneByOne(key, batch.slice(0, 1));
          batch = batch.slice(1);
          if (batch.length > 0) continue;
        } else await together(key, batch, known);
      } catch (error) {
        for (const send of batch) send.reject(error);
      }
      batch = waiting.get(key)!.splice(0, MAX_SENDS_PER_STATEMENT);
    }
    waiting.delete(key);
  }

  return (input: AllocateInput): Promise<SignedTransaction> =>
    new Promise((resolve, reject) => {
      const key = `${input.chainId}:${lower(input.fromAddress)}`;
      const send = { input, resolve, reject };
      const queued = waiting.get(key);
      if (queued) {
        queued.push(send);
        return;
      }
      waiting.set(key, []);
      void drain(key, [send]);
    });
}
