import type { Hex, PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { broadcast } from './broadcast-transaction.ts';
import { ChainUnavailableError } from './errors.ts';
import { withChainErrors } from './map-chain-error.ts';
import { minesOnDemand } from './mines-on-demand.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/**
 * Ours is the chain's next nonce and has no receipt seconds after it was sent. Dropped by the node (it holds
 * none of ours): the latest is sent again now, not at the next re-broadcast, and replaced if the node refuses
 * it (fees can have risen). Held by a node that mines a block per transaction, which would have mined it:
 * anvil can hold one for good, ready and skipped by its miner (foundry-rs/foundry#10122) or queued behind a
 * nonce already mined; a replacement is placed in the pool afresh, and gets mined.
 */
export type NextNonceUnmined = (
  client: PublicClient,
  candidates: SignedTransaction[],
) => Promise<'resent' | 'replace' | 'wait'>;

export interface NextNonceUnminedDeps {
  journal: TransactionJournal;
  log: Logger;
}

export function createNextNonceLook(deps: NextNonceUnminedDeps): NextNonceUnmined {
  const { journal, log } = deps;

  /**
   * Sends a dropped transaction again; false when the node refuses it (the caller replaces it). A node that
   * cannot be reached throws, and the step retries.
   */
  async function sendAgain(client: PublicClient, tx: SignedTransaction): Promise<boolean> {
    const what = { chainId: tx.chainId, nonce: tx.nonce, hash: tx.hash };
    try {
      await broadcast(journal, client, tx);
      log.warn('the node no longer held a transaction: sent it again', what);
      return true;
    } catch (error) {
      if (error instanceof ChainUnavailableError) throw error;
      log.warn('the node dropped a transaction and refused it again: replacing it', {
        ...what,
        reason: (error as Error).message,
      });
      return false;
    }
  }

  return async function nextNonceUnmined(client, candidates) {
    const latest = candidates.at(-1)!;
    const held = await heldByNode(client, candidates);
    // Mined since the receipt read: the next one finds it.
    if (held === 'mined') return 'wait';
    if (held === 'none') return (await sendAgain(client, latest)) ? 'resent' : 'replace';
    // Asked each time, not cached: a test switches automine off to hold a transaction in the pool. Other nodes
    // reject the question, at most every NONCE_TAKEN_CHECK_EVERY_MS while a transaction waits.
    if ((await minesOnDemand(client)) !== true) return 'wait';
    log.warn('a node that mines per transaction holds ours unmined: replacing it', {
      chainId: latest.chainId,
      nonce: latest.nonce,
      hash: latest.hash,
    });
    return 'replace';
  };
}

/**
 * What the node holds of the candidates: one mined, one pending in its pool, or none. A node drops
 * transactions from its pool (eviction under pressure; anvil drops one it finds invalid while building a
 * block, such as a fee cap under a risen base fee).
 */
async function heldByNode(
  client: PublicClient,
  candidates: SignedTransaction[],
): Promise<'mined' | 'pending' | 'none'> {
  let pending = false;
  for (const tx of candidates) {
    const known = await withChainErrors(() =>
      client.request({ method: 'eth_getTransactionByHash', params: [tx.hash as Hex] }),
    );
    if (known?.blockNumber) return 'mined';
    if (known) pending = true;
  }
  return pending ? 'pending' : 'none';
}
