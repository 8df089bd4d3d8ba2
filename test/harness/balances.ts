/** A holder's balance on a devnet chain: of an ERC-20, or of the native currency for the zero address. */
import { type Address, erc20Abi, isAddressEqual, zeroAddress } from 'viem';
import type { TestDevnetChain } from './devnet.ts';

export function balanceOf(chain: TestDevnetChain, token: Address, holder: Address): Promise<bigint> {
  if (isAddressEqual(token, zeroAddress)) return chain.publicClient.getBalance({ address: holder });
  return chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}
