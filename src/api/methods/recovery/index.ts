/**
 * The recovery methods on the wire: each passes the decoded request to the recovery services in the
 * caller's project (methods that need a key always have one by the time they run, access.ts) and answers
 * what they return. Refusals are the services' own errors, mapped in src/api/errors/to-wire-error.ts.
 */
import type { RecoveryServices } from '../../../intents/recovery/index.ts';
import type { ApiServices } from '../../context.ts';
import { createBuildIntentRecoveryTransaction } from './build-intent-recovery-transaction.ts';
import { createPrepareIntentRecovery } from './prepare-intent-recovery.ts';
import { createRelayIntentRecovery } from './relay-intent-recovery.ts';
import { createRetryIntent } from './retry-intent.ts';

export type RecoveryHandlers = Required<
  Pick<
    ApiServices,
    'PrepareIntentRecovery' | 'BuildIntentRecoveryTransaction' | 'RelayIntentRecovery' | 'RetryIntent'
  >
>;

export function createRecoveryHandlers(recovery: RecoveryServices): RecoveryHandlers {
  return {
    PrepareIntentRecovery: createPrepareIntentRecovery(recovery),
    BuildIntentRecoveryTransaction: createBuildIntentRecoveryTransaction(recovery),
    RelayIntentRecovery: createRelayIntentRecovery(recovery),
    RetryIntent: createRetryIntent(recovery),
  };
}
