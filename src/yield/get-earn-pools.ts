/**
 * GetEarnPools: the same markets as YieldGetMarkets in the reference's flatter EarnPool form, filtered by
 * chain ids, protocols (provider ids, case-insensitive), a least TVL in USD and a most APY (a fraction, as
 * `rewardRate`). A market without a USD price has no TVL, so `minTvl` leaves it out.
 */
import { InvalidInputError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import type { MarketReader } from './create-market-reader.ts';
import { readMarkets } from './read-markets.ts';
import type { MarketConfig, MarketReading } from './types.ts';

export interface EarnPoolsQuery {
  chainIds?: readonly number[] | undefined;
  protocols?: readonly string[] | undefined;
  minTvl?: number | undefined;
  maxApy?: number | undefined;
}

export interface EarnPoolsDeps {
  markets: readonly MarketConfig[];
  reader: MarketReader;
  log: Logger;
}

export function createGetEarnPools(deps: EarnPoolsDeps): (query: EarnPoolsQuery) => Promise<MarketReading[]> {
  return async (query) => {
    for (const field of ['minTvl', 'maxApy'] as const) {
      const value = query[field];
      if (value !== undefined && !Number.isFinite(value))
        throw new InvalidInputError(field, 'must be a number');
    }
    const protocols = query.protocols?.map((p) => p.trim().toLowerCase());
    const configured = deps.markets.filter(
      (m) =>
        (!query.chainIds?.length || query.chainIds.includes(m.chainId)) &&
        (!protocols?.length || protocols.includes(m.providerId)),
    );
    const readings = await readMarkets(deps.reader, configured, deps.log);
    return readings.filter(
      (r) =>
        (query.minTvl === undefined || (r.tvlUsd !== undefined && r.tvlUsd >= query.minTvl)) &&
        (query.maxApy === undefined || r.rewardRate <= query.maxApy),
    );
  };
}
