/**
 * Fresh users for the benchmark: one new key per intent, so deposits never queue behind one nonce. Each
 * gets ETH for gas through anvil_setBalance and mints its own deposit token (the devnet tokens' `mint`
 * is open to anyone), all before anything is timed.
 */
import { type Address, encodeFunctionData, type PrivateKeyAccount, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mintableTokenAbi } from '../../src/devnet/abis.ts';
import type { BenchChain } from './e2e-chain.ts';
import { sendAndWait } from './e2e-chain.ts';
import { runPool } from './run-pool.ts';

/** Gas money per user (wei): a deposit costs well under 0.001 ETH on the devnet. */
const USER_ETH = parseEther('1');
/** Users funded at once: enough to keep anvil busy without piling up HTTP connections. */
const FUNDING_CONCURRENCY = 16;

export async function fundUsers(
  chain: BenchChain,
  token: Address,
  amount: bigint,
  count: number,
): Promise<PrivateKeyAccount[]> {
  const users = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
  await runPool(users, FUNDING_CONCURRENCY, async (user) => {
    await chain.test.setBalance({ address: user.address, value: USER_ETH });
    await sendAndWait(chain, user, {
      to: token,
      data: encodeFunctionData({ abi: mintableTokenAbi, functionName: 'mint', args: [user.address, amount] }),
    });
  });
  return users;
}
