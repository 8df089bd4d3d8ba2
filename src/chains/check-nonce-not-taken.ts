import type { Address, PublicClient } from 'viem';
import { NonceAlreadyUsedError } from './errors.ts';
import { withChainErrors } from './map-chain-error.ts';
import type { NoticeLost } from './notice-lost-transactions.ts';
import { readReceipt } from './read-receipt.ts';
import { NONCE_TAKEN_GRACE_MS } from './sender-constants.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/**
 * The chain's confirmed nonce passed ours while none of our candidates has a receipt: another transaction
 * took the nonce (the key was used elsewhere). Ours can never mine; mark them replaced so the next attempt
 * signs afresh with a new nonce. Resolves to the chain's confirmed nonce otherwise.
 */
export type CheckNonceNotTaken = (client: PublicClient, candidates: SignedTransaction[]) => Promise<number>;

export interface CheckNonceNotTakenDeps {
  journal: TransactionJournal;
  /** Told when the confirmed nonce is below ours (a gap the chain's restore may have to fill). */
  noticeLost: NoticeLost;
}

export function createNonceTakenCheck(deps: CheckNonceNotTakenDeps): CheckNonceNotTaken {
  const { journal, noticeLost } = deps;
  return async function checkNonceNotTaken(client, candidates) {
    const first = candidates[0]!;
    const confirmedNonce = await withChainErrors(() =>
      client.getTransactionCount({ address: first.fromAddress as Address, blockTag: 'latest' }),
    );
    if (confirmedNonce < first.nonce) await noticeLost(first, confirmedNonce);
    if (confirmedNonce <= first.nonce) return confirmedNonce;
    // Giving ours up when it did mine makes the step sign afresh and fail against a done execution, so:
    // only "not found" counts as absent (a failed read throws and the step retries), and the absence must
    // last NONCE_TAKEN_GRACE_MS (a node under load served the new nonce before the receipt that used it).
    const anyMined = async () => {
      for (const tx of candidates) {
        const receipt = await readReceipt(client, tx.hash);
        if (receipt) return true;
      }
      return false;
    };
    if (await anyMined()) return confirmedNonce; // mined after all: the caller's next poll picks it up
    await new Promise((resolve) => setTimeout(resolve, NONCE_TAKEN_GRACE_MS));
    if (await anyMined()) return confirmedNonce;
    for (const tx of candidates) await journal.markReplaced(tx.hash);
    throw new NonceAlreadyUsedError(`nonce ${first.nonce} was taken by another transaction`, {
      details: { chainId: first.chainId, from: first.fromAddress, nonce: first.nonce },
    });
  };
}
