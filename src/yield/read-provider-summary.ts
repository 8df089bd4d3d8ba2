/**
 * One provider as the markets name it (`providerId`): its markets, their chains, and their total value
 * locked in USD read live (read-markets.ts). Provider ids are the configured ones, lower case.
 */
import type { Logger } from '../internal/logger.ts';
import type { MarketReader } from './create-market-reader.ts';
import { readMarkets } from './read-markets.ts';
import type { MarketConfig } from './types.ts';

export interface ProviderSummary {
  id: string;
  /** Ids of its markets, and the chains they are on. */
  marketIds: string[];
  chainIds: number[];
  /** Sum over its markets that have a USD price; undefined when none has. */
  tvlUsd: number | undefined;
}

export interface ProvidersDeps {
  markets: readonly MarketConfig[];
  reader: MarketReader;
  log: Logger;
}

/** The provider ids the markets name, in id order. */
export function providerIds(markets: readonly MarketConfig[]): string[] {
  return [...new Set(markets.map((m) => m.providerId))].sort();
}

export async function readProviderSummary(deps: ProvidersDeps, id: string): Promise<ProviderSummary> {
  const markets = deps.markets.filter((m) => m.providerId === id);
  const readings = await readMarkets(deps.reader, markets, deps.log);
  const priced = readings.flatMap((r) => (r.tvlUsd === undefined ? [] : [r.tvlUsd]));
  return {
    id,
    marketIds: markets.map((m) => m.id),
    chainIds: [...new Set(markets.map((m) => m.chainId))],
    tvlUsd: priced.length === 0 ? undefined : priced.reduce((a, b) => a + b, 0),
  };
}
