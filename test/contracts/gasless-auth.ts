/**
 * The user's gasless-deposit signatures over DevUSDC, for the contract tests: what an EIP-2612 permit and
 * an EIP-3009 authorization to an intent account have in common, and the permit signed at the user's
 * current nonce.
 */
import type { Address, Hex } from 'viem';
import { devUsdcAbi } from '../../src/contracts/abis.generated.ts';
import { type DepositAuthorization, permitTypedData } from '../../src/contracts/auth-data.ts';
import type { TestChain } from '../harness/chain.ts';

/** DevUSDC's EIP-712 domain name (its constructor's ERC20Permit name). */
export const DEV_USDC_NAME = 'USD Coin (devnet)';

/** The user lets the intent `account` take `value` DevUSDC. */
export function userAuthorization(chain: TestChain, account: Address, value: bigint): DepositAuthorization {
  return {
    token: chain.tokens.usdc,
    tokenName: DEV_USDC_NAME,
    chainId: BigInt(chain.chainId),
    owner: chain.accounts.user.address,
    account,
    value,
  };
}

/** The user's EIP-2612 permit of `value` DevUSDC for `spender` (an intent account), at the current nonce. */
export async function signUserPermit(
  chain: TestChain,
  p: { spender: Address; value: bigint; deadline: bigint },
): Promise<Hex> {
  const nonce = await chain.publicClient.readContract({
    address: chain.tokens.usdc,
    abi: devUsdcAbi,
    functionName: 'nonces',
    args: [chain.accounts.user.address],
  });
  return chain.wallets.user.signTypedData(
    permitTypedData({ ...userAuthorization(chain, p.spender, p.value), nonce, deadline: p.deadline }),
  );
}
