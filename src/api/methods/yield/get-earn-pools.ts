/**
 * GetEarnPools on the wire: the yield markets as the reference's EarnPool. `apy` is the market's measured
 * reward rate (a fraction, 0.05 = 5 %, as YieldGetMarkets' `rewardRate`); `tvl` its TVL in USD (0 when the
 * token has no price); `poolUrl` the vault on the chain's explorer when one is configured. The pools are
 * read live on every call: `cached` is always false.
 */
import type { ChainConfig } from '../../../internal/config-types.ts';
import type { MarketReading, YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';

export function createGetEarnPools(
  service: YieldService,
  chainById: ReadonlyMap<number, ChainConfig>,
  now: () => Date,
): Handler<'GetEarnPools'> {
  return async (input) => {
    const readings = await service.getEarnPools(input);
    return {
      pools: readings.map((r) => toEarnPool(r, chainById.get(r.market.chainId))),
      timestamp: now().toISOString(),
      cached: false,
    };
  };
}

function toEarnPool(reading: MarketReading, chain: ChainConfig | undefined) {
  const { market, metadata } = reading;
  const explorer = chain?.explorerUrl?.replace(/\/+$/, '');
  return {
    id: market.id,
    name: market.name ?? metadata.name,
    protocol: market.providerId,
    chainId: market.chainId,
    apy: reading.rewardRate,
    tvl: reading.tvlUsd ?? 0,
    token: {
      symbol: metadata.asset.symbol,
      name: metadata.asset.name,
      address: metadata.asset.address,
      decimals: metadata.asset.decimals,
    },
    depositAddress: market.vault,
    isActive: true,
    ...(explorer && { poolUrl: `${explorer}/address/${market.vault}` }),
  };
}
