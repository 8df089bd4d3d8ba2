/** The operator keys of a devnet (anvil's public test accounts; never used on a real network). */

import { signingAccount } from '../chains/signing-account.ts';
import type { DevnetFile } from '../devnet/devnet-file.ts';
import type { OperatorKeys } from '../intents/operator-from-env.ts';
import { ConfigError } from '../internal/errors.ts';

export function devnetOperator(devnet: DevnetFile): OperatorKeys {
  const { relayer, solver, attester, feeCollector } = devnet.accounts;
  if (!relayer || !solver || !attester) {
    throw new ConfigError('devnet.json lacks the relayer, solver or attester account: start with --reset');
  }
  return {
    relayer: signingAccount(relayer.privateKey),
    solver: signingAccount(solver.privateKey),
    attester: signingAccount(attester.privateKey),
    feeCollector: feeCollector?.address ?? relayer.address,
  };
}
