import type { Hex, PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { broadcast } from './broadcast-transaction.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/** Re-broadcasts every stored unconfirmed transaction as stored (start-up after a crash); resolves to how many. */
export type RebroadcastUnconfirmed = () => Promise<number>;

export interface RebroadcastUnconfirmedDeps {
  journal: TransactionJournal;
  clientFor(chainId: number): PublicClient;
  log: Logger;
}

export function createUnconfirmedRebroadcast(deps: RebroadcastUnconfirmedDeps): RebroadcastUnconfirmed {
  const { journal, log } = deps;

  /** Marks whichever row at this nonce has a receipt as mined (the others replaced); false if none. */
  async function reconcileMined(tx: SignedTransaction, pending: SignedTransaction[]): Promise<boolean> {
    const client = deps.clientFor(tx.chainId);
    const sameNonce = pending.filter(
      (p) => p.chainId === tx.chainId && p.fromAddress === tx.fromAddress && p.nonce === tx.nonce,
    );
    for (const candidate of sameNonce) {
      const receipt = await client
        .getTransactionReceipt({ hash: candidate.hash as Hex })
        .catch(() => undefined);
      if (!receipt) continue;
      await journal.markMined({
        hash: candidate.hash,
        status: receipt.status === 'success' ? 'mined' : 'failed',
        block: receipt.blockNumber,
        index: receipt.transactionIndex,
      });
      for (const other of sameNonce) {
        if (other.hash !== candidate.hash) await journal.markReplaced(other.hash);
      }
      return true;
    }
    return false;
  }

  return async function rebroadcastUnconfirmed() {
    const pending = await journal.listUnconfirmed();
    const newest = new Map<string, SignedTransaction>();
    // A row mined once and being sent again when the process stopped belongs to the chain's restore,
    // which sends it in its order (the engine's chain watch runs one per chain at start).
    for (const tx of pending) {
      if (tx.minedBlock == null) newest.set(`${tx.chainId}:${tx.fromAddress}:${tx.nonce}`, tx);
    }
    for (const tx of newest.values()) {
      try {
        // Mined while the process was down, by a transaction no step will wait on again (a step that
        // finds its effect on-chain, e.g. an allowance already set, skips the sender): record it here,
        // or the row would stay "unconfirmed" and be re-broadcast at every start.
        if (await reconcileMined(tx, pending)) continue;
        await broadcast(journal, deps.clientFor(tx.chainId), tx);
      } catch (error) {
        log.warn('re-broadcast failed; the owning step will retry', { hash: tx.hash, error });
      }
    }
    return newest.size;
  };
}
