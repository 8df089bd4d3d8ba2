import type { Hex, PublicClient } from 'viem';
import { NonceAlreadyUsedError } from './errors.ts';
import { mapChainError } from './map-chain-error.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/** Hands the stored bytes to the node and writes the journal's broadcast mark. */
export async function broadcast(
  journal: TransactionJournal,
  client: PublicClient,
  tx: SignedTransaction,
): Promise<void> {
  await sendRaw(client, tx);
  await journal.markBroadcast({ hash: tx.hash });
}

/** Hands the stored bytes to the node; the journal's broadcast mark is the caller's. */
export async function sendRaw(client: PublicClient, tx: SignedTransaction): Promise<void> {
  try {
    await client.request({ method: 'eth_sendRawTransaction', params: [tx.raw as Hex] });
  } catch (error) {
    const mapped = mapChainError(error, { hash: tx.hash, nonce: tx.nonce });
    // "already known" / "nonce too low": the receipt wait tells whether it was ours that got in.
    if (!(mapped instanceof NonceAlreadyUsedError)) throw mapped;
  }
}
