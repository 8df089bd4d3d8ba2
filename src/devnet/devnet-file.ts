/**
 * `<dataDir>/devnet.json`, the devnet's public description (DESIGN §1): where the API is, its access
 * key, each chain's RPC URL, tokens and contracts, and the (public, test-only) role keys. Also turns
 * it into the server's `ChainConfig[]`.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Address } from 'viem';
import type {
  ChainConfig,
  ExternalContracts,
  SwitchyardContracts,
  TokenConfig,
} from '../internal/config-types.ts';
import { ConfigError } from '../internal/errors.ts';
import type { DevnetAccount } from './accounts.ts';
import {
  DEVNET_CONFIRMATIONS,
  DEVNET_RPC_BATCH_SIZE,
  DEVNET_TOKEN_INFO,
  type DevnetRole,
} from './constants.ts';
import { devnetFilePath } from './devnet-file-path.ts';

export interface DevnetChainEntry {
  chainId: number;
  name: string;
  rpcUrl: string;
  /** Symbol → address; ETH (the native currency) is the zero address. */
  tokens: Record<string, Address>;
  /** Name → address: Switchyard's own contracts, Uniswap V2, WETH and the ERC-4626 vaults. */
  contracts: SwitchyardContracts & ExternalContracts & Record<string, Address>;
}

export interface DevnetFile {
  apiUrl: string;
  /** Filled in by the API once it has created the devnet project's key; empty until then. */
  accessKey: string;
  /** The intent explorer the API serves (`<apiUrl>/explorer`); written once the API listens. */
  explorerUrl?: string;
  /** The Prometheus listener (`…/metrics`); written once it listens. */
  metricsUrl?: string;
  chains: DevnetChainEntry[];
  accounts: { user: DevnetAccount } & Partial<Record<DevnetRole, DevnetAccount>>;
}

/** Written to a temporary name first, then renamed, so a reader never sees half a file. */
export async function writeDevnetFile(dataDir: string, devnet: DevnetFile): Promise<string> {
  const file = devnetFilePath(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(devnet, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
  return file;
}

export async function readDevnetFile(dataDir: string): Promise<DevnetFile> {
  const file = devnetFilePath(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`no devnet description at ${file}; start the devnet with: switchyard devnet`, {
      details: { file },
      cause,
    });
  }
  return JSON.parse(text) as DevnetFile;
}

/** The server's view of the devnet chains. */
export function devnetChainConfigs(devnet: DevnetFile): ChainConfig[] {
  return devnet.chains.map((chain) => ({
    chainId: chain.chainId,
    name: chain.name,
    rpcUrls: [chain.rpcUrl],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: DEVNET_CONFIRMATIONS,
    // No block explorer runs beside anvil: GetChains links to the API's own explorer.
    servedExplorer: true,
    // anvil orders its pool by tip, then arrival: the execution behind the fill lands right after it.
    destinationBehindFill: true,
    rpcBatchSize: DEVNET_RPC_BATCH_SIZE,
    tokens: Object.entries(chain.tokens).map(([symbol, address]) => tokenConfig(symbol, address)),
    contracts: { ...chain.contracts },
  }));
}

function tokenConfig(symbol: string, address: Address): TokenConfig {
  const info = DEVNET_TOKEN_INFO[symbol];
  if (!info)
    throw new ConfigError(`devnet token ${symbol} has no metadata`, { details: { symbol, address } });
  return {
    symbol,
    name: info.name,
    address,
    decimals: info.decimals,
    featured: true,
    supportsBridging: true,
    ...(symbol === 'USDC' ? { isUsdReference: true } : {}),
  };
}
