/**
 * The registry of public networks (`data/public-networks.json`): names, native currency, explorer,
 * confirmations, the main tokens and the DEX contracts of the networks `switchyard config init` fills in by
 * itself. Each address carries the key of the page it was taken from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { SwitchyardError } from '../internal/errors.ts';

/** The registry sits at the repository root; `src/operator/` and its compiled `dist/operator/` are both two levels down. */
const REGISTRY_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'data',
  'public-networks.json',
);

export interface RegistryToken {
  symbol: string;
  name: string;
  address: Address;
  decimals: number;
  isUsdReference?: boolean;
  /** A key of the registry's `sources`. */
  source: string;
}

export interface RegistryNetwork {
  chainId: number;
  name: string;
  isTestnet: boolean;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  explorerUrl: string;
  confirmations: number;
  source: string;
  tokens: RegistryToken[];
  /**
   * `weth` (the native wrapper), `uniswapV2Factory`, `uniswapV2Router` and Uniswap V3's `uniswapV3Factory`,
   * `uniswapV3TickLens`, `uniswapV3QuoterV2`, `uniswapV3PositionManager`, `uniswapSwapRouter02` where
   * deployed: the names of the serve config's `contracts`, which src/providers reads.
   */
  contracts: Record<string, { address: Address; source: string }>;
}

export interface PublicNetworkRegistry {
  sources: Record<string, string>;
  networks: RegistryNetwork[];
}

/** The registry file is missing or not JSON (a broken checkout). */
export class RegistryUnreadableError extends SwitchyardError {
  override readonly name = 'RegistryUnreadableError';
}

export function loadPublicNetworks(file = REGISTRY_FILE): PublicNetworkRegistry {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PublicNetworkRegistry;
  } catch (cause) {
    throw new RegistryUnreadableError(`cannot read the public network registry ${file}`, { cause });
  }
}

export function findPublicNetwork(
  registry: PublicNetworkRegistry,
  chainId: number,
): RegistryNetwork | undefined {
  return registry.networks.find((n) => n.chainId === chainId);
}
