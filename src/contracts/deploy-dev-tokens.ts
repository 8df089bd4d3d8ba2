/**
 * Devnet tokens and vaults (contracts/devnet): DevUSDC, DevDAI (open `mint` faucets, devnet only) and
 * AccruingVault. All go through the CREATE2 deployer, so the tokens sit at the same address on every chain.
 */
import { type Address, encodeDeployData, type Hex, type PublicClient } from 'viem';
import { accruingVaultAbi } from './abis.generated.ts';
import { loadArtifact } from './artifacts.ts';
import { type DeployWalletClient, deployCreate2, ensureCreate2Deployer, switchyardSalt } from './create2.ts';

export type DevTokenName = 'DevUSDC' | 'DevDAI';

interface DeployClients {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
}

/** Deploys DevUSDC or DevDAI (idempotent); `salt` defaults to the name's fixed salt. */
export async function deployDevToken(
  p: DeployClients & { name: DevTokenName; salt?: Hex },
): Promise<Address> {
  await ensureCreate2Deployer(p.publicClient);
  const { address } = await deployCreate2({
    ...p,
    salt: p.salt ?? switchyardSalt(p.name),
    initCode: loadArtifact(p.name).bytecode,
  });
  return address;
}

/** Deploys an AccruingVault over `asset` whose reserve drips `yieldPerSecond` base units per second. */
export async function deployAccruingVault(
  p: DeployClients & { asset: Address; name: string; symbol: string; yieldPerSecond: bigint; salt?: Hex },
): Promise<Address> {
  await ensureCreate2Deployer(p.publicClient);
  const initCode = encodeDeployData({
    abi: accruingVaultAbi,
    bytecode: loadArtifact('AccruingVault').bytecode,
    args: [p.asset, p.name, p.symbol, p.yieldPerSecond],
  });
  const salt = p.salt ?? switchyardSalt(`AccruingVault:${p.symbol}`);
  const { address } = await deployCreate2({ ...p, salt, initCode });
  return address;
}
