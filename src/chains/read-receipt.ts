import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import { withChainErrors } from './map-chain-error.ts';

/** The transaction's receipt, or undefined when the node answers "not found"; a failed read throws, mapped. */
export function readReceipt(client: PublicClient, hash: string): Promise<TransactionReceipt | undefined> {
  return withChainErrors(() =>
    client.getTransactionReceipt({ hash: hash as Hex }).catch((error: unknown) => {
      if ((error as { name?: string }).name === 'TransactionReceiptNotFoundError') return undefined;
      throw error;
    }),
  );
}
