/**
 * RelayIntentRecovery, the gasless recovery: the owner signs, the service's relayer sends and keeps the fee
 * the owner signed (`maxFee`, offered by PrepareIntentRecovery only when the balance covers the gas), out of
 * what is recovered — never more than that, which the contract enforces too. Answers once the transaction is
 * mined, with its status (REVERTED only when something else emptied the address between the check and the
 * block, e.g. the engine's own refund after a deadline: the relayer then paid the gas, the owner lost nothing). A payload with no fee is refused: nothing would pay the relayer.
 */
import type { Address } from 'viem';
import { checkSignedRecovery } from './check-signed-recovery.ts';
import { RecoveryInputError } from './errors.ts';
import type { RecoveryDeps, RelayedRecovery, SignedRecoveryInput } from './types.ts';

export function createRelayIntentRecovery(deps: RecoveryDeps & { relayer: Address }) {
  return async (input: SignedRecoveryInput, projectId: number): Promise<RelayedRecovery> => {
    const checked = await checkSignedRecovery(deps, input, projectId, {
      from: deps.relayer,
      fee: (payload) => {
        if (BigInt(payload.maxFee) === 0n) {
          throw new RecoveryInputError(
            'payload.maxFee',
            'is 0: this recovery pays no relayer (the balance does not cover the gas, or no price is known); send it yourself with BuildIntentRecoveryTransaction',
          );
        }
        return BigInt(payload.maxFee);
      },
    });
    const sent = await deps.engine.relayRecovery({
      intentId: checked.loaded.record.intentId,
      chainId: checked.chain.chainId,
      to: checked.to,
      data: checked.data,
      nonce: checked.recovery.nonce,
    });
    return {
      intentId: checked.loaded.record.intentId,
      chainId: checked.chain.chainId,
      intentAddress: checked.account.address,
      transactionHash: sent.hash,
      fee: sent.status === 'success' ? checked.recovery.maxFee : 0n,
      transactionStatus: sent.status === 'success' ? 'SUCCEEDED' : 'REVERTED',
    };
  };
}
