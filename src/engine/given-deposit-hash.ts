/**
 * ExecuteIntent named the deposit transaction after the deposit step had already counted the deposit
 * without knowing it (the deposit watcher started the intent first, and a native deposit leaves no log to
 * find it by): the SUCCEEDED deposit row gets the hash, its sender and its block time, once the receipt
 * shows that transaction paid the intent address. Anything else leaves the row as it is.
 */
import type { Hex } from 'viem';
import { minedAt } from '../chains/mined-at.ts';
import type { Store } from '../store/types.ts';
import type { EngineContext } from './context.ts';

export async function recordGivenDepositHash(
  ctx: Pick<EngineContext, 'chain'> & { store: Store },
  input: { intentId: string; chainId: number; originAddress: string; hash: Hex },
): Promise<void> {
  const rows = await ctx.store.transactions.list(input.intentId);
  const row = rows.find((r) => r.kind === 'deposit');
  if (row?.status !== 'SUCCEEDED' || row.txnHash) return;
  const { client } = ctx.chain(input.chainId);
  const receipt = await client.getTransactionReceipt({ hash: input.hash }).catch(() => undefined);
  if (receipt?.status !== 'success') return;
  if (receipt.to?.toLowerCase() !== input.originAddress.toLowerCase()) return;
  await ctx.store.transactions.upsert({
    intentId: input.intentId,
    kind: 'deposit',
    chainId: input.chainId,
    status: 'SUCCEEDED',
    txnHash: input.hash,
    fromAddress: receipt.from,
    minedAt: await minedAt(client, receipt),
  });
}
