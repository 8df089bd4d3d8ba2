/**
 * One reading of a vault at one block: the share price (assets for `10**decimals × PRICE_SAMPLE_SCALE`
 * shares, see constants.ts) with the block's timestamp, and `totalAssets`. Every read is pinned to the same
 * block so the price and its timestamp belong together.
 */
import type { Address, PublicClient } from 'viem';
import { PRICE_SAMPLE_SCALE } from './constants.ts';
import type { PriceSample } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export interface VaultState {
  sample: PriceSample;
  totalAssets: bigint;
}

export function scaledShares(shareDecimals: number): bigint {
  return 10n ** BigInt(shareDecimals) * PRICE_SAMPLE_SCALE;
}

export async function readPriceSample(
  client: PublicClient,
  vault: Address,
  shareDecimals: number,
  blockNumber: bigint,
): Promise<PriceSample> {
  const [block, assetsPerScaledShare] = await Promise.all([
    client.getBlock({ blockNumber }),
    client.readContract({
      address: vault,
      abi: vaultAbi,
      functionName: 'convertToAssets',
      args: [scaledShares(shareDecimals)],
      blockNumber,
    }),
  ]);
  return { blockNumber, timestamp: block.timestamp, assetsPerScaledShare };
}

/** The vault now: the latest block's share price and total assets. */
export async function readVaultState(
  client: PublicClient,
  vault: Address,
  shareDecimals: number,
): Promise<VaultState> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const [sample, totalAssets] = await Promise.all([
    readPriceSample(client, vault, shareDecimals, blockNumber),
    client.readContract({ address: vault, abi: vaultAbi, functionName: 'totalAssets', blockNumber }),
  ]);
  return { sample, totalAssets };
}
