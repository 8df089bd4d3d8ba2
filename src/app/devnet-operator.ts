/** The operator keys of a devnet (anvil's public test accounts; never used on a real network). */

import { toLocalAccount } from '../devnet/accounts.ts';
import type { DevnetFile } from '../devnet/devnet-file.ts';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import { ConfigError } from '../internal/errors.ts';

export function devnetOperator(devnet: DevnetFile): OperatorKeys {
  const { relayer, solver, attester, feeCollector } = devnet.accounts;
  if (!relayer || !solver || !attester) {
    throw new ConfigError('devnet.json lacks the relayer, solver or attester account: start with --reset');
  }
  return {
    relayer: toLocalAccount(relayer),
    solver: toLocalAccount(solver),
    attester: toLocalAccount(attester),
    feeCollector: feeCollector?.address ?? relayer.address,
  };
}
