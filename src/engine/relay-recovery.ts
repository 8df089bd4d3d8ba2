/**
 * The gasless recovery: the relayer sends the owner's signed recovery (IntentAccount.recover, through the
 * factory when the account is not deployed) and keeps the fee the owner allowed, out of what is recovered.
 * Sent like every operator transaction (simulated first, journaled before broadcast, one per intent and
 * recovery nonce), so a repeat resumes the same transaction instead of signing another.
 */
import type { Address, Hex } from 'viem';
import type { SentTransaction } from '../chains/create-transaction-sender.ts';
import type { EngineContext } from './context.ts';

/** Journal purpose of a relayed recovery: one per signed nonce. */
export const RECOVERY_PURPOSE_PREFIX = 'recovery:';

export interface RelayRecoveryInput {
  intentId: string;
  chainId: number;
  /** The factory (deployIfNeededAndRecover) or the deployed account (recover). */
  to: Address;
  data: Hex;
  /** The signed recovery's nonce: names the transaction. */
  nonce: bigint;
}

export function relayRecovery(ctx: EngineContext, input: RelayRecoveryInput): Promise<SentTransaction> {
  return ctx.sender.sendOnce({
    chainId: input.chainId,
    account: ctx.keys.relayer,
    to: input.to,
    data: input.data,
    purpose: `${RECOVERY_PURPOSE_PREFIX}${input.nonce.toString(16)}`,
    intentId: input.intentId,
  });
}
