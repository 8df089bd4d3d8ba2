import { type Hex, type LocalAccount, parseTransaction, type TransactionSerializable } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';
import type { Logger } from '../internal/logger.ts';
import { replacementFees, type SignedFees } from './fee-caps.ts';
import type { SigningGate } from './signing-gate.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

/**
 * A replacement of a stuck transaction at the same nonce, with higher fees under the chain's cap; undefined
 * when the cap leaves no room for a replacement a node would accept.
 */
export type SignReplacement = (
  account: LocalAccount,
  stored: SignedTransaction,
) => Promise<SignedTransaction | undefined>;

export interface SignReplacementDeps {
  journal: TransactionJournal;
  log: Logger;
  /** The chain's cap per gas (wei), or undefined for none (TransactionSenderDeps.maxFeePerGas). */
  maxFeePerGas?: ((chainId: number) => bigint | undefined) | undefined;
  gate: SigningGate;
}

export function createReplacementSigner(deps: SignReplacementDeps): SignReplacement {
  const { journal, log, gate } = deps;
  return async (account, stored) => {
    const { parsed, previous } = unsignedWithFees(stored.raw as Hex);
    const fees = replacementFees(previous, deps.maxFeePerGas?.(stored.chainId));
    if (!fees) return undefined;
    const what = { chainId: stored.chainId, nonce: stored.nonce, replaces: stored.hash };
    return gate.journalSignature(what, async () => {
      const raw = await account.signTransaction!({ ...parsed, ...fees } as TransactionSerializable);
      log.warn('replacing a stuck transaction at the same nonce', what);
      return journal.record({
        chainId: stored.chainId,
        fromAddress: stored.fromAddress,
        nonce: stored.nonce,
        raw,
        hash: keccak256(raw),
        purpose: stored.purpose,
        intentId: stored.intentId,
      });
    });
  };
}

/** A stored raw transaction as an unsigned one, and the fees it was signed with. */
function unsignedWithFees(raw: Hex): { parsed: TransactionSerializable; previous: SignedFees } {
  // The stored transaction's own signature must not come along: viem would hash the signed form and
  // the new signature would recover to some other, unfunded address ("insufficient funds").
  const {
    r: _r,
    s: _s,
    v: _v,
    yParity: _yParity,
    ...parsed
  } = parseTransaction(raw) as TransactionSerializable & {
    gasPrice?: bigint;
    maxFeePerGas?: bigint;
    maxPriorityFeePerGas?: bigint;
    r?: Hex;
    s?: Hex;
    v?: bigint;
    yParity?: number;
  };
  const previous: SignedFees =
    parsed.type === 'legacy'
      ? { type: 'legacy', gasPrice: parsed.gasPrice! }
      : {
          type: 'eip1559',
          maxFeePerGas: parsed.maxFeePerGas!,
          maxPriorityFeePerGas: parsed.maxPriorityFeePerGas!,
        };
  return { parsed, previous };
}
