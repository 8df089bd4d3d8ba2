/**
 * Pauses an intent at one of its transactions: with the chain's automine off, mines one block at a time
 * (releasing the intent's earlier transactions on that chain) until a journaled transaction of one of
 * `purposes` has been broadcast and waits, unmined, in the chain's mempool. The engine sends most of an
 * intent's transactions on one chain one after another, each after the previous one is mined; the
 * destination execution is the exception (it goes out right behind the fill, still in the pool), so a
 * transaction of a purpose in `keep` is never mined past: the awaited one joins it in the pool.
 */
import type { Hex } from 'viem';
import type { SignedTransaction } from '../../../src/store/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import type { ResilienceService } from './resilience-service.ts';
import { waitFor } from './wait-for.ts';

export async function holdInMempool(
  svc: ResilienceService,
  chain: TestDevnetChain,
  purposes: string | string[],
  options: { keep?: string[] } = {},
): Promise<SignedTransaction> {
  const wanted = [purposes].flat();
  const chainId = chain.entry.chainId;
  const inPool = (row: SignedTransaction) =>
    chain.publicClient
      .getTransaction({ hash: row.hash as Hex })
      .then((tx) => tx.blockNumber === null)
      .catch(() => false);
  return waitFor(`a broadcast ${wanted.join(' or ')} in the mempool of chain ${chainId}`, async () => {
    const rows = await svc.store.signedTransactions.listUnconfirmed({ chainId });
    const waiting: SignedTransaction[] = [];
    for (const row of rows) if (row.status === 'broadcast' && (await inPool(row))) waiting.push(row);
    const target = waiting.find((r) => wanted.includes(r.purpose));
    if (target) return target;
    const kept = waiting.some((r) => options.keep?.includes(r.purpose));
    if (waiting.length > 0 && !kept) await chain.testClient.mine({ blocks: 1 });
    return undefined;
  });
}
