/** YieldGetMarkets: the configured markets, filtered, read live, sorted and paged. */
import type { Logger } from '../internal/logger.ts';
import type { MarketReader } from './create-market-reader.ts';
import { type MarketQueryInput, parseMarketQuery } from './parse-market-query.ts';
import { matchesConfig, matchesSearch, sortReadings } from './select-markets.ts';
import type { MarketConfig, MarketReading } from './types.ts';

export interface GetMarketsDeps {
  markets: readonly MarketConfig[];
  reader: MarketReader;
  log: Logger;
}

/** One page of the markets that match: their readings, how many match in all, and the page's bounds. */
export interface MarketPage {
  readings: MarketReading[];
  total: number;
  offset: number;
  limit: number;
}

export function createGetMarkets(deps: GetMarketsDeps): (input: MarketQueryInput) => Promise<MarketPage> {
  return async (input) => {
    const query = parseMarketQuery(input);
    const configured = deps.markets.filter((m) => matchesConfig(m, query));
    const readings = await readAll(deps, configured, query.search);
    const sorted = sortReadings(readings, query.sort);
    return {
      readings: sorted.slice(query.offset, query.offset + query.limit),
      total: sorted.length,
      offset: query.offset,
      limit: query.limit,
    };
  };
}

/** Readings of the markets that match the search; a market whose chain cannot be read is left out (and logged). */
async function readAll(
  deps: GetMarketsDeps,
  markets: readonly MarketConfig[],
  search: string | undefined,
): Promise<MarketReading[]> {
  const settled = await Promise.allSettled(
    markets.map(async (market) => {
      const metadata = await deps.reader.metadata(market);
      return matchesSearch(market, metadata, search) ? deps.reader.read(market) : undefined;
    }),
  );
  const readings: MarketReading[] = [];
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      if (result.value) readings.push(result.value);
      return;
    }
    deps.log.warn('yield market left out: its vault could not be read', {
      marketId: markets[i]!.id,
      error: result.reason instanceof Error ? result.reason.message : String(result.reason),
    });
  });
  return readings;
}
