/**
 * Deploys the ERC-4626 vaults whose share price grows on-chain (AccruingVault), makes a first deposit
 * into each and funds its yield reserve, so that every vault has assets and a rising share price from
 * the start.
 */
import { type Address, erc20Abi } from 'viem';
import { deployAccruingVault } from '../contracts/deploy-dev-tokens.ts';
import { accruingVaultAbi, erc4626Abi } from './abis.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { BPS, type DevnetVaultAsset, type DevnetVaultSpec, FUNDING, SECONDS_PER_YEAR } from './constants.ts';
import { mint } from './mint.ts';
import { sendAndWait } from './send-and-wait.ts';

/** The yield reserve holds this many years of yield at the vault's rate: one year of rising prices. */
const YIELD_RESERVE_YEARS = 1n;

/** Contract names in devnet.json: `usdcVault`, `daiVault`. */
export function vaultContractName(asset: DevnetVaultAsset): string {
  return `${asset.toLowerCase()}Vault`;
}

/** Base units released per second so that the seed deposit earns `apyBps` a year. */
export function vaultYieldPerSecond(spec: DevnetVaultSpec): bigint {
  return (FUNDING.vaultSeed[spec.asset] * BigInt(spec.apyBps)) / BPS / SECONDS_PER_YEAR;
}

export async function deployVaults(
  clients: DevnetChainClients,
  specs: readonly DevnetVaultSpec[],
  tokens: Record<DevnetVaultAsset, Address>,
): Promise<Record<string, Address>> {
  const { publicClient, walletClient } = clients;
  const vaults: Record<string, Address> = {};
  for (const spec of specs) {
    vaults[vaultContractName(spec.asset)] = await deployAccruingVault({
      publicClient,
      walletClient,
      asset: tokens[spec.asset],
      name: `Switchyard ${spec.asset} Vault`,
      symbol: `sy${spec.asset}`,
      yieldPerSecond: vaultYieldPerSecond(spec),
    });
  }
  return vaults;
}

/** First deposit (from the deployer) and a year's yield reserve for each vault that holds nothing yet. */
export async function seedVaults(
  clients: DevnetChainClients,
  vaults: Record<string, Address>,
  tokens: Record<DevnetVaultAsset, Address>,
  specs: readonly DevnetVaultSpec[],
): Promise<void> {
  const deployer = clients.walletClient.account.address;
  for (const spec of specs) {
    const vault = vaults[vaultContractName(spec.asset)]!;
    const token = tokens[spec.asset];
    const held = await clients.publicClient.readContract({
      address: vault,
      abi: erc4626Abi,
      functionName: 'totalAssets',
    });
    if (held > 0n) continue;
    const deposit = FUNDING.vaultSeed[spec.asset];
    const reserve = vaultYieldPerSecond(spec) * SECONDS_PER_YEAR * YIELD_RESERVE_YEARS;
    await mint(clients, token, deployer, deposit + reserve);
    await sendAndWait(clients, {
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [vault, deposit + reserve],
    });
    await sendAndWait(clients, {
      address: vault,
      abi: erc4626Abi,
      functionName: 'deposit',
      args: [deposit, deployer],
    });
    await sendAndWait(clients, {
      address: vault,
      abi: accruingVaultAbi,
      functionName: 'fundYield',
      args: [reserve],
    });
  }
}
