/**
 * Filtering, ordering and paging of markets. Configuration filters (provider, chain, type) run before any
 * chain read; search needs the vault's metadata; sorting needs the live readings.
 */
import type { MarketQuery, MarketSort } from './parse-market-query.ts';
import type { MarketConfig, MarketReading, VaultMetadata } from './types.ts';

export function matchesConfig(market: MarketConfig, query: MarketQuery): boolean {
  if (query.provider !== undefined && market.providerId.toLowerCase() !== query.provider) return false;
  if (query.chainId !== undefined && market.chainId !== query.chainId) return false;
  if (query.type !== undefined && market.type !== query.type) return false;
  return true;
}

/** Case-insensitive substring over the market's names, id, vault address and its token's symbol, name, address. */
export function matchesSearch(
  market: MarketConfig,
  metadata: VaultMetadata,
  search: string | undefined,
): boolean {
  if (search === undefined) return true;
  const haystack = [
    market.id,
    market.name,
    market.vault,
    metadata.name,
    metadata.symbol,
    metadata.asset.symbol,
    metadata.asset.name,
    metadata.asset.address,
  ];
  return haystack.some((text) => text?.toLowerCase().includes(search));
}

/** Sorted copy; ties (and no sort) keep the registry's order: by chain, then id. A market without a TVL goes last. */
export function sortReadings(
  readings: readonly MarketReading[],
  sort: MarketSort | undefined,
): MarketReading[] {
  const copy = [...readings];
  if (sort === 'rewardRateDesc') copy.sort((a, b) => b.rewardRate - a.rewardRate);
  if (sort === 'rewardRateAsc') copy.sort((a, b) => a.rewardRate - b.rewardRate);
  if (sort === 'tvlDesc') copy.sort((a, b) => (b.tvlUsd ?? -1) - (a.tvlUsd ?? -1));
  return copy;
}
