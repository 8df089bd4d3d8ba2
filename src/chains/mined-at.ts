/**
 * When a receipt's block was mined. Nodes that stamp logs (and receipts) with `blockTimestamp` (anvil, recent
 * geth) answer it in the receipt already; only otherwise is the block read (one eth_getBlockByNumber, which
 * every send and the deposit step would otherwise pay).
 */
import type { PublicClient, TransactionReceipt } from 'viem';
import { withChainErrors } from './map-chain-error.ts';

export async function minedAt(client: PublicClient, receipt: TransactionReceipt): Promise<Date> {
  const stamped = stampOf(receipt);
  if (stamped !== undefined) return new Date(Number(stamped) * 1000);
  const block = await withChainErrors(() => client.getBlock({ blockNumber: receipt.blockNumber }));
  return new Date(Number(block.timestamp) * 1000);
}

/** The receipt's block time (s) as the node gave it, if it did: on a log, or on the receipt itself. */
function stampOf(receipt: TransactionReceipt): bigint | undefined {
  const fromLog = receipt.logs.find((l) => l.blockNumber === receipt.blockNumber)?.blockTimestamp;
  if (typeof fromLog === 'bigint') return fromLog;
  // viem passes unknown receipt members through unformatted: a number (anvil) or a hex quantity.
  const raw = (receipt as { blockTimestamp?: unknown }).blockTimestamp;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return BigInt(raw);
  if (typeof raw === 'bigint' && raw > 0n) return raw;
  if (typeof raw === 'string' && /^0x[0-9a-f]+$/i.test(raw)) return BigInt(raw);
  return undefined;
}
