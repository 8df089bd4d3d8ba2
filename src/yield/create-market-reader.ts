/**
 * Reads markets live: metadata once per market (immutable, kept by this reader), then on every call the
 * latest share price, total assets, the token's USD price and the rate the tracker measures.
 */
import { formatUnits, type PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import type { RateTracker } from './create-rate-tracker.ts';
import { readVaultMetadata } from './read-vault-metadata.ts';
import { readVaultState } from './read-vault-state.ts';
import type { MarketConfig, MarketReading, VaultMetadata, YieldPrices } from './types.ts';

export interface MarketReader {
  /** Metadata only (for the search filter and enter actions); read once and kept. */
  metadata(market: MarketConfig): Promise<VaultMetadata>;
  read(market: MarketConfig): Promise<MarketReading>;
}

export interface MarketReaderDeps {
  getClient(chainId: number): PublicClient;
  prices: YieldPrices;
  tracker: RateTracker;
  log: Logger;
}

export function createMarketReader(deps: MarketReaderDeps): MarketReader {
  const metadataById = new Map<string, Promise<VaultMetadata>>();
  const metadata = (market: MarketConfig): Promise<VaultMetadata> => {
    let pending = metadataById.get(market.id);
    if (!pending) {
      pending = readVaultMetadata(deps.getClient(market.chainId), market.vault);
      // A failed read is not kept: the next call tries again.
      pending.catch(() => metadataById.delete(market.id));
      metadataById.set(market.id, pending);
    }
    return pending;
  };
  return {
    metadata,
    async read(market) {
      const client = deps.getClient(market.chainId);
      const meta = await metadata(market);
      const state = await readVaultState(client, market.vault, meta.decimals);
      const [measured, priceUsd] = await Promise.all([
        deps.tracker.measure({
          marketId: market.id,
          client,
          vault: market.vault,
          shareDecimals: meta.decimals,
          current: state.sample,
        }),
        deps.prices.getPriceUsd(market.chainId, meta.asset.address),
      ]);
      return {
        market,
        metadata: meta,
        totalAssets: state.totalAssets,
        rewardRate: measured.rate,
        rateWindowSeconds: measured.windowSeconds,
        priceUsd,
        tvlUsd:
          priceUsd === undefined
            ? undefined
            : Number(formatUnits(state.totalAssets, meta.asset.decimals)) * priceUsd,
        blockNumber: state.sample.blockNumber,
      };
    },
  };
}
