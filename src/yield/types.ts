/** The yield subsystem's own types: configured markets, live readings, share-price samples. */
import type { Address, PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';

export type MarketType = 'vault' | 'lending';

/** One configured market: where it is and how it is labelled. Fixed for the life of the service. */
export interface MarketConfig {
  /** `<providerId>-<chainId>-<vault address, lower case>`: stable and unique across chains. */
  id: string;
  chainId: number;
  network: string;
  vault: Address;
  providerId: string;
  type: MarketType;
  /** Configured display name; the vault's own `name()` when absent. */
  name?: string | undefined;
}

export interface TokenMetadata {
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
}

/** What a vault says about itself once: immutable, read once per service and kept. */
export interface VaultMetadata {
  name: string;
  symbol: string;
  /** Decimals of the vault's shares. */
  decimals: number;
  asset: TokenMetadata;
}

/** The share price at one block: assets for `10**decimals × PRICE_SAMPLE_SCALE` shares. */
export interface PriceSample {
  blockNumber: bigint;
  /** Block timestamp, seconds. */
  timestamp: bigint;
  assetsPerScaledShare: bigint;
}

/** A market as read now: the config, its metadata and its live numbers. */
export interface MarketReading {
  market: MarketConfig;
  metadata: VaultMetadata;
  totalAssets: bigint;
  /** Annualised, compounded growth of the share price (0.05 = 5 %). */
  rewardRate: number;
  /** Seconds of history the rate was measured over (0: no history yet, rate 0). */
  rateWindowSeconds: number;
  /** totalAssets × token price in USD; undefined when the token has no price. */
  tvlUsd: number | undefined;
  priceUsd: number | undefined;
  blockNumber: bigint;
}

export interface YieldPrices {
  getPriceUsd(chainId: number, token: string): Promise<number | undefined> | number | undefined;
}

export interface YieldServiceDeps {
  chains: readonly ChainConfig[];
  prices: YieldPrices;
  /** Read clients per chain id; a chain without one gets an HTTP client on its first RPC URL. */
  clients?: ReadonlyMap<number, PublicClient> | undefined;
  log: Logger;
}
