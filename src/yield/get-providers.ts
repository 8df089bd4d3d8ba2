/**
 * YieldGetProviders and YieldGetProvider: the providers the configured markets name (`providerId`), each
 * with its markets' chains and their total value locked in USD, read live (read-markets.ts). Providers
 * come in id order; paged like the markets.
 */
import type { Logger } from '../internal/logger.ts';
import type { MarketReader } from './create-market-reader.ts';
import { ProviderNotFoundError } from './errors.ts';
import { parsePage } from './parse-market-query.ts';
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

export interface ProviderPage {
  providers: ProviderSummary[];
  total: number;
  offset: number;
  limit: number;
}

export interface ProvidersDeps {
  markets: readonly MarketConfig[];
  reader: MarketReader;
  log: Logger;
}

export function createGetProviders(deps: ProvidersDeps) {
  const ids = [...new Set(deps.markets.map((m) => m.providerId))].sort();
  const summary = async (id: string): Promise<ProviderSummary> => {
    const markets = deps.markets.filter((m) => m.providerId === id);
    const readings = await readMarkets(deps.reader, markets, deps.log);
    const priced = readings.flatMap((r) => (r.tvlUsd === undefined ? [] : [r.tvlUsd]));
    return {
      id,
      marketIds: markets.map((m) => m.id),
      chainIds: [...new Set(markets.map((m) => m.chainId))],
      tvlUsd: priced.length === 0 ? undefined : priced.reduce((a, b) => a + b, 0),
    };
  };
  return {
    async getProviders(input: {
      limit?: number | undefined;
      offset?: number | undefined;
    }): Promise<ProviderPage> {
      const { limit, offset } = parsePage(input);
      const page = ids.slice(offset, offset + limit);
      return { providers: await Promise.all(page.map(summary)), total: ids.length, offset, limit };
    },
    async getProvider(providerId: string): Promise<ProviderSummary> {
      const id = ids.find((known) => known === providerId.trim().toLowerCase());
      if (!id) throw new ProviderNotFoundError(providerId);
      return summary(id);
    },
  };
}
