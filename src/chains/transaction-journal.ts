/**
 * What the transaction sender keeps of every transaction it signs, and the journal it keeps it in. A
 * signed transaction is recorded before it is broadcast, so after a crash it is sent again as stored (the
 * same hash, never re-signed with a new nonce), and nonces are allocated per (chain, key) in the journal.
 * src/chains persists nothing itself: the store implements this journal (`store.signedTransactions`) and
 * the engine hands it to the sender.
 */

export type SignedTransactionStatus = 'signed' | 'broadcast' | 'mined' | 'failed' | 'replaced';

export interface SignedTransaction {
  id: number;
  chainId: number;
  fromAddress: string;
  nonce: number;
  raw: string;
  hash: string;
  purpose: string;
  intentId: string | null;
  status: SignedTransactionStatus;
  createdAt: Date;
  broadcastAt: Date | null;
  minedAt: Date | null;
  /** Block number and index in that block where it was mined (unset until mined, and on older journal rows). */
  minedBlock?: number | null;
  minedIndex?: number | null;
}

/**
 * `Row`: a write of the caller's that the journal commits with the record of a new signature, built from
 * its hash (the engine's receipt row at the send's signed stage); the sender never looks inside it.
 */
export interface SignTransactionInput<Row = unknown> {
  chainId: number;
  fromAddress: string;
  purpose: string;
  intentId?: string;
  /** The chain's pending nonce for the address, so allocation never falls behind it. */
  nonceFloor?: number;
  /** Signs with the allocated nonce. Local and quick: it runs inside the database transaction. */
  sign(nonce: number): Promise<{ raw: string; hash: string }>;
  /**
   * The caller's write for the signed transaction: committed in the statement that records it where the
   * store can, otherwise right after the record; written before `allocateAndRecord` resolves either way.
   */
  withRecord?: (hash: string) => Row;
}

/**
 * A journal mark that a caller's own write records with it, in one statement where the store can (a receipt
 * row's move at the same stage of the same send: `TransactionsRepo.advance`'s `journalMark`). The same change
 * as `markBroadcast` (only a row still `signed` moves) or `markMined`.
 */
export type JournalMark =
  | { stage: 'broadcast'; hash: string; at?: Date }
  | {
      stage: 'mined';
      hash: string;
      status: 'mined' | 'failed';
      at?: Date;
      block?: bigint | number;
      index?: number;
    };

export interface TransactionJournal<Row = unknown> {
  /**
   * Allocates a nonce, signs, and stores the signed transaction in one database transaction, so a
   * crash either keeps both or neither: a nonce is never taken without its transaction on record.
   */
  allocateAndRecord(input: SignTransactionInput<Row>): Promise<SignedTransaction>;
  /** Stores an already signed transaction (a re-signed replacement with the same nonce). */
  record(
    input: Omit<SignedTransaction, 'id' | 'createdAt' | 'broadcastAt' | 'minedAt' | 'status'>,
  ): Promise<SignedTransaction>;
  markBroadcast(input: { hash: string; at?: Date }): Promise<void>;
  markMined(input: {
    hash: string;
    status: 'mined' | 'failed';
    at?: Date;
    /** Where it was mined: the order lost transactions are sent again in (restore-lost-transactions.ts). */
    block?: bigint | number;
    index?: number;
  }): Promise<void>;
  /**
   * A `mined` (or `failed`) row whose transaction the chain lost is being sent again as stored: back to
   * `broadcast`, keeping its first mined block (the order of a restore that is interrupted and resumed).
   */
  markResent(hash: string): Promise<void>;
  /**
   * The highest nonce of a key on a chain among rows that were mined once (`mined`, `failed`, or being sent
   * again after the chain lost them); undefined if none.
   */
  highestMinedNonce(input: { chainId: number; fromAddress: string }): Promise<number | undefined>;
  markReplaced(hash: string): Promise<void>;
  findByHash(hash: string): Promise<SignedTransaction | undefined>;
  /** Signed or broadcast but not mined: what to re-broadcast after a restart, in nonce order. */
  listUnconfirmed(input?: { chainId?: number; fromAddress?: string }): Promise<SignedTransaction[]>;
  listForIntent(intentId: string): Promise<SignedTransaction[]>;
  /** Every row of one key on one chain with `fromNonce <= nonce < belowNonce`, in nonce order. */
  listAtNonces(input: {
    chainId: number;
    fromAddress: string;
    fromNonce: number;
    belowNonce: number;
  }): Promise<SignedTransaction[]>;
}
