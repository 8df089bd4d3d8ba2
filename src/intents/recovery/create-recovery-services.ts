/**
 * The recovery services behind PrepareIntentRecovery, BuildIntentRecoveryTransaction, RelayIntentRecovery
 * and RetryIntent: plain inputs in the caller's project, domain errors out (./errors.ts). docs/api.md
 * "Recovery and retries" describes them for callers.
 */
import type { Address } from 'viem';
import { createBuildIntentRecoveryTransaction } from './build-intent-recovery-transaction.ts';
import { createPrepareIntentRecovery } from './prepare-intent-recovery.ts';
import { createRelayIntentRecovery } from './relay-intent-recovery.ts';
import { createRetryIntent } from './retry-intent.ts';
import type { RecoveryDeps } from './types.ts';

export type RecoveryServices = ReturnType<typeof createRecoveryServices>;

export function createRecoveryServices(deps: RecoveryDeps & { relayer: Address }) {
  return {
    prepare: createPrepareIntentRecovery(deps),
    buildTransaction: createBuildIntentRecoveryTransaction(deps),
    relay: createRelayIntentRecovery(deps),
    retry: createRetryIntent(deps),
  };
}
