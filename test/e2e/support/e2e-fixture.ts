/**
 * The whole service for end-to-end tests: a devnet, a SQLite store in a file, the intent services with the
 * REAL engine (relayer, solver and attester keys of the devnet), and the API listening on a loopback port,
 * assembled as production does (test/harness/app.ts). Tests talk to it only the way a user would: the
 * official client (or plain fetch), and the chains.
 */
import type { Address, Hex } from 'viem';
import {
  FAST_ENGINE_OPTIONS,
  startTestSwitchyard,
  type TestSwitchyard,
  type TestSwitchyardOptions,
} from '../../harness/app.ts';
import { balanceOf } from '../../harness/balances.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';

/** The service fee the e2e server charges (bps): non-zero so the fee collector's balance must move. */
export const E2E_SERVICE_FEE_BPS = 25n;

export interface E2eService extends TestSwitchyard {
  /** An ERC-20 balance, or the native balance for the zero address. */
  balance(chainId: number | bigint, token: string, holder: string): Promise<bigint>;
}

/** `extra`: production settings a suite turns on (the webhook secrets' key). */
export async function startE2eService(
  extra: Pick<TestSwitchyardOptions, 'webhookSecretsKey'> = {},
): Promise<E2eService> {
  const app = await startTestSwitchyard({
    engineOptions: FAST_ENGINE_OPTIONS,
    intentServices: { serviceFeeBps: E2E_SERVICE_FEE_BPS },
    rateLimit: false,
    ...extra,
  });
  return {
    ...app,
    balance: (chainId, token, holder) => balanceOf(app.chain(chainId), token as Address, holder as Address),
  };
}

export { balanceOf };

/** The native cost a transaction's sender paid for gas (wei). */
export async function gasPaid(chain: TestDevnetChain, hash: Hex): Promise<bigint> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}
