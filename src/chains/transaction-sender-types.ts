/**
 * The transaction sender's public types (created by createTransactionSender, which re-exports them): what a
 * send asks for, what it returns, the sender's methods and what it is built from.
 */
import type { Address, Hex, LocalAccount, PublicClient, TransactionReceipt } from 'viem';
import type { Logger } from '../internal/logger.ts';
import type { LatestBlockCache } from './latest-block-cache.ts';
import type { TaskLeaseHolder } from './task-leases.ts';
import type { JournalMark, SignedTransaction, TransactionJournal } from './transaction-journal.ts';

export type SendStage = 'signed' | 'broadcast' | 'mined';

/** `Row`: the journal's companion write (SignTransactionInput), given as `signedRow`. */
export interface SendRequest<Row = unknown> {
  chainId: number;
  account: LocalAccount;
  to: Address;
  data: Hex;
  value?: bigint;
  /** What the transaction is for; with intentId it names the transaction (one per intent and purpose). */
  purpose: string;
  intentId?: string;
  /**
   * Told about each stage (the fill's successor goes out once the fill is in the pool). `mark`: the journal's
   * broadcast mark, given only with `holdBroadcastMark`, for the caller to write with its own write.
   */
  onStage?: (stage: SendStage, hash: Hex, mark?: JournalMark) => Promise<void>;
  /**
   * For a caller with no stage writes (onStage, not recordStage) whose `onStage('broadcast')` writes anyway
   * (the fill's, which journals the destination step): the sender does not write the journal's broadcast
   * mark but hands it to `onStage('broadcast')`, which writes it with its own write (one statement on
   * Postgres: `StepsRepo.enqueueAll`'s `journalMark`). Until that write commits the journal's row stays
   * `signed`; a send that resumes it (the step run again, or the start-up re-broadcast) sends the stored
   * bytes again and hands the mark over again, never signing anew.
   */
  holdBroadcastMark?: boolean;
  /**
   * Instead of onStage, for a caller that writes at each stage (a receipt row: RELAYING, RELAYED, MINING):
   * it gets the journal's mark of that stage with it, and writes the mark itself, with its own write (one
   * statement on Postgres), and the sender does not. `mark` is undefined for `signed` (allocateAndRecord
   * journaled it), and for `mined` on a chain whose depth is more than one block (the sender marks the
   * transaction mined once it is deep enough, on its own). The journal records a signed transaction before
   * it is broadcast either way; only the broadcast and mined marks ride with the caller's write.
   */
  recordStage?: (stage: SendStage, hash: Hex, mark: JournalMark | undefined) => Promise<void>;
  /**
   * The caller's write at the `signed` stage, committed with the new signature's record (one statement on
   * Postgres: `SignTransactionInput.withRecord`) instead of by `recordStage('signed')`. A send that resumes
   * a journaled transaction signs nothing and writes nothing at that stage, as with recordStage.
   */
  signedRow?: (hash: string) => Row;
  /**
   * Sign without simulating: the call would revert now because it depends on a transaction still in the
   * pool, and the caller accepts an on-chain revert if it lands first. Signed with this gas limit (as is)
   * and a priority fee one wei below the chain's, so a pool ordering by fee puts it after the transaction it
   * depends on (sent before it at the chain's fee). Only for calls whose revert is harmless.
   */
  unsimulated?: { gasLimit: bigint };
  /**
   * For a caller with no stage writes (onStage, not recordStage) that writes the journal's mined mark itself,
   * with its own later write (the fill's step completion, one statement on Postgres): a transaction that
   * succeeded is not marked mined by the sender; its mark comes back as `SentTransaction.minedMark`. A
   * reverted one is marked `failed` as usual. Until the caller writes the mark the journal's row stays
   * `broadcast`; a send that resumes it (the step run again) finds its receipt and hands the mark back again.
   */
  holdMinedMark?: boolean;
  /**
   * The rows `journaled()` gave for this intent, purpose and chain, read by the caller just before: the
   * sender then does not read them again. Only for a caller holding the step lease of the one step that
   * sends this purpose: rows for an (intent, purpose) are written only by that step's own sendOnce (a new
   * signature or a replacement), so none can appear between its read and this send. Absent: read here.
   */
  journaled?: readonly SignedTransaction[];
}

export interface SentTransaction {
  hash: Hex;
  receipt: TransactionReceipt;
  /** Block timestamp of the receipt's block. */
  minedAt: Date;
  /** The journal's mined mark, not written: the caller's to write (`SendRequest.holdMinedMark`). */
  minedMark?: JournalMark;
}

export interface TransactionSender<Row = unknown> {
  /** Sends (or resumes) the transaction for this purpose and returns once it is mined and deep enough. */
  sendOnce(request: SendRequest<Row>): Promise<SentTransaction>;
  /** The journaled transactions of an intent for a purpose (newest last). */
  journaled(request: { intentId: string; purpose: string; chainId: number }): Promise<SignedTransaction[]>;
  /** Re-broadcasts every stored unconfirmed transaction as stored (start-up after a crash). */
  rebroadcastUnconfirmed(): Promise<number>;
  /**
   * Runs `job` alone among the jobs with the same key, in this process and in every other worker on the
   * database (a task lease, waited for): a read-then-send that is not tied to one intent (the solver's
   * approve per token) must not be done twice by two steps running at once.
   */
  exclusive<T>(key: string, job: () => Promise<T>): Promise<T>;
  /**
   * Sends the chain's lost mined transactions again, every key's, in their first order (a chain that came
   * back behind); resolves to how many were mined again, or undefined when another worker is restoring the
   * chain now. Started by a send waiting behind such a gap, and by the engine's chain watch
   * (src/engine/chain-watch.ts).
   */
  restoreLost(chainId: number): Promise<number | undefined>;
  /**
   * No restore starts after this; a running one stops at its next transaction boundary and is awaited
   * (bounded). Called when the engine stops; sends are not affected.
   */
  stopRestoring(): Promise<void>;
  /**
   * Nothing new is signed after this (a send that would sign, or replace a stuck transaction, throws
   * SenderStoppedError); resolves once the signatures being journaled have been. A stopping worker calls it
   * before handing its steps back, so the worker that takes a step over finds every transaction it sent in
   * the journal and resumes it rather than signing a second one.
   */
  stopSigning(): Promise<void>;
}

export interface TransactionSenderDeps<Row = unknown> {
  /** Where every signed transaction is recorded before it is broadcast (the store's signedTransactions). */
  journal: TransactionJournal<Row>;
  clients: ReadonlyMap<number, PublicClient>;
  /** Confirmation depth per chain id (blocks, counting the one that includes the transaction). */
  confirmations: (chainId: number) => number;
  log: Logger;
  /** The latest block per chain, shared with the engine's deadline checks (default: the sender's own). */
  latestBlocks?: LatestBlockCache;
  /**
   * The keys whose lost transactions a restore looks for, beside every key this sender has sent with (the
   * engine's operator keys: after a restart nothing has been sent yet).
   */
  operators?: readonly string[];
  /**
   * The most a transaction may pay per gas on this chain (wei; the config's `maxFeePerGasGwei`), or
   * undefined for no ceiling. A send the chain would not include under it waits; nothing is signed above it.
   */
  maxFeePerGas?: (chainId: number) => bigint | undefined;
  /**
   * This worker's task leases (the chain's restore, exclusive jobs), shared with the rest of the engine;
   * default: leases of its own, under a fresh worker name.
   */
  leases?: TaskLeaseHolder;
  /** Overrides for tests. */
  timing?: Partial<{ stuckAfterMs: number; waitPerAttemptMs: number; pollIntervalMs: number }>;
}
