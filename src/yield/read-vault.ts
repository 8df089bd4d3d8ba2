/** One-argument ERC-4626 views that answer a uint256, typed by name, at the latest block or a given one. */
import type { Address, PublicClient } from 'viem';
import { vaultAbi } from './vault-abi.ts';

type ByAddress = 'balanceOf' | 'maxWithdraw' | 'maxDeposit';
type ByAmount = 'convertToAssets' | 'previewRedeem' | 'previewWithdraw';

export function readVault(
  client: PublicClient,
  vault: Address,
  functionName: ByAddress,
  arg: Address,
  blockNumber?: bigint,
): Promise<bigint>;
export function readVault(
  client: PublicClient,
  vault: Address,
  functionName: ByAmount,
  arg: bigint,
  blockNumber?: bigint,
): Promise<bigint>;
export function readVault(
  client: PublicClient,
  vault: Address,
  functionName: ByAddress | ByAmount,
  arg: Address | bigint,
  blockNumber?: bigint,
): Promise<bigint> {
  const call = { address: vault, abi: vaultAbi, ...(blockNumber !== undefined && { blockNumber }) };
  if (typeof arg === 'bigint') {
    return client.readContract({ ...call, functionName: functionName as ByAmount, args: [arg] });
  }
  return client.readContract({ ...call, functionName: functionName as ByAddress, args: [arg] });
}
