import type { Logger } from '../internal/logger.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/**
 * The chain's confirmed nonce is below ours, and the journal holds transactions of this key that were
 * mined at nonces in between: the node lost blocks we had seen (restarted from an older state, a deep
 * reorg). Ours cannot be mined until those nonces are used again: the chain's restore sends every key's
 * lost transactions as stored, in their first order (a fill before the execution that spends it). Not
 * awaited: this send keeps watching its own receipt, which the restore unblocks. The query is the one
 * check this gap costs; unconfirmed rows below ours are left to the steps that wait on them.
 */
export type NoticeLost = (ours: SignedTransaction, confirmedNonce: number) => Promise<void>;

export interface NoticeLostDeps {
  journal: TransactionJournal;
  /** Adds the key to those the restore looks at. */
  keyUsed(address: string): void;
  /** Starts (or joins) the chain's restore (LostTransactionRestorer.restore). */
  restore(chainId: number): Promise<number | undefined>;
  log: Logger;
}

export function createLostNotice(deps: NoticeLostDeps): NoticeLost {
  const { journal, log } = deps;
  return async function noticeLost(ours, confirmedNonce) {
    const below = await journal.listAtNonces({
      chainId: ours.chainId,
      fromAddress: ours.fromAddress,
      fromNonce: confirmedNonce,
      belowNonce: ours.nonce,
    });
    if (!below.some((t) => t.status === 'mined' || t.status === 'failed')) return;
    deps.keyUsed(ours.fromAddress);
    deps.restore(ours.chainId).catch((error: unknown) => {
      log.warn('restoring lost transactions failed; retried at the next trigger', {
        chainId: ours.chainId,
        error,
      });
    });
  };
}
