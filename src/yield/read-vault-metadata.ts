/** The vault's immutable facts: its share token's name, symbol and decimals, and its underlying asset. */
import { type Address, erc20Abi, type PublicClient } from 'viem';
import type { VaultMetadata } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export async function readVaultMetadata(client: PublicClient, vault: Address): Promise<VaultMetadata> {
  const read = <F extends 'name' | 'symbol' | 'decimals' | 'asset'>(functionName: F) =>
    client.readContract({ address: vault, abi: vaultAbi, functionName });
  const [name, symbol, decimals, asset] = await Promise.all([
    read('name'),
    read('symbol'),
    read('decimals'),
    read('asset'),
  ]);
  const token = <F extends 'name' | 'symbol' | 'decimals'>(functionName: F) =>
    client.readContract({ address: asset, abi: erc20Abi, functionName });
  const [assetName, assetSymbol, assetDecimals] = await Promise.all([
    token('name'),
    token('symbol'),
    token('decimals'),
  ]);
  return {
    name,
    symbol,
    decimals,
    asset: { address: asset, name: assetName, symbol: assetSymbol, decimals: assetDecimals },
  };
}
