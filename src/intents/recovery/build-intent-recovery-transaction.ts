/**
 * BuildIntentRecoveryTransaction: the owner's signed recovery as a transaction anyone can send (the owner
 * from any wallet, a friend, a script). It keeps no fee for its sender: the whole balance goes to the signed
 * recipient. On an address with no code yet the transaction goes to the factory, which deploys the account
 * first (`requiresDeploy`).
 */
import { checkSignedRecovery } from './check-signed-recovery.ts';
import type { RecoveryDeps, RecoveryTransaction, SignedRecoveryInput } from './types.ts';

export function createBuildIntentRecoveryTransaction(deps: RecoveryDeps) {
  return async (input: SignedRecoveryInput, projectId: number): Promise<RecoveryTransaction> => {
    const checked = await checkSignedRecovery(deps, input, projectId, { fee: () => 0n });
    return {
      to: checked.to,
      data: checked.data,
      value: 0n,
      chainId: checked.chain.chainId,
      intentAddress: checked.account.address,
      requiresDeploy: checked.requiresDeploy,
      payloadHash: checked.payloadHash,
    };
  };
}
