/**
 * Yield networks are the configured chains that have markets. A network's id is the chain's name, the same
 * string markets carry as `network`; a caller may also name it by its chain id as a decimal string. Both
 * are matched case-insensitively.
 */
import type { ChainConfig } from '../internal/config-types.ts';
import type { MarketConfig } from './types.ts';

export interface YieldNetwork {
  /** The chain's name: what markets carry as `network`. */
  id: string;
  chainId: number;
  name: string;
}

export function yieldNetworks(
  chains: readonly ChainConfig[],
  markets: readonly MarketConfig[],
): YieldNetwork[] {
  return chains
    .filter((chain) => markets.some((m) => m.chainId === chain.chainId))
    .map((chain) => ({ id: chain.name, chainId: chain.chainId, name: chain.name }));
}

export function findNetwork(networks: readonly YieldNetwork[], named: string): YieldNetwork | undefined {
  const wanted = named.trim().toLowerCase();
  return networks.find((n) => n.id.toLowerCase() === wanted || String(n.chainId) === wanted);
}
