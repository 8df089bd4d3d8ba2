/**
 * Pauses an intent at one of its transactions: with the chain's automine off, mines one block at a time
 * (releasing the intent's earlier transactions on that chain) until the journaled transaction of `purpose`
 * has been broadcast and waits, unmined, in the chain's mempool. The engine sends an intent's transactions
 * on one chain one after another, each after the previous one is mined, so a block is never mined while the
 * one awaited is already in the pool.
 */
import type { Hex } from 'viem';
import type { SignedTransaction } from '../../../src/store/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import type { ResilienceService } from './resilience-service.ts';
import { waitFor } from './wait-for.ts';

export async function holdInMempool(
  svc: ResilienceService,
  chain: TestDevnetChain,
  purpose: string,
): Promise<SignedTransaction> {
  const chainId = chain.entry.chainId;
  const inPool = (row: SignedTransaction) =>
    chain.publicClient
      .getTransaction({ hash: row.hash as Hex })
      .then((tx) => tx.blockNumber === null)
      .catch(() => false);
  return waitFor(`a broadcast ${purpose} in the mempool of chain ${chainId}`, async () => {
    const rows = await svc.store.signedTransactions.listUnconfirmed({ chainId });
    const waiting: SignedTransaction[] = [];
    for (const row of rows) if (row.status === 'broadcast' && (await inPool(row))) waiting.push(row);
    const target = waiting.find((r) => r.purpose === purpose);
    if (target) return target;
    if (waiting.length > 0) await chain.testClient.mine({ blocks: 1 });
    return undefined;
  });
}
