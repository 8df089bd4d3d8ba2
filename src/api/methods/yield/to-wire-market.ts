/**
 * A market reading on the wire, in the two forms clients read (docs/yield.md):
 * - `payload[]`, the seed spec's Market: `rewardRate` is a bare number (the APY fraction);
 * - `items[]`, the 0.18.4 client's YieldMarket: `rewardRate` is `{ total, … }` (it reads `rewardRate.total`).
 * Everything else is the same in both; `rewardRateDetails` carries the object in the spec form as well.
 */
import type { MarketReading } from '../../../yield/index.ts';

export interface RewardRateDetails {
  /** Annualised, compounded share-price growth (0.05 = 5 %). */
  total: number;
  /** The same: vault yield is all base yield, there are no extra reward tokens. */
  base: number;
  rewards: number;
  /** Seconds of share-price history measured; 0 means no history yet and `total` 0. */
  windowSeconds: number;
  rateType: 'APY';
}

function details(reading: MarketReading): RewardRateDetails {
  return {
    total: reading.rewardRate,
    base: reading.rewardRate,
    rewards: 0,
    windowSeconds: reading.rateWindowSeconds,
    rateType: 'APY',
  };
}

function common(reading: MarketReading) {
  const { market, metadata } = reading;
  const token = {
    symbol: metadata.asset.symbol,
    address: metadata.asset.address,
    decimals: metadata.asset.decimals,
    name: metadata.asset.name,
    chainId: String(market.chainId),
    network: market.network,
  };
  const name = market.name ?? metadata.name;
  const shareToken = {
    symbol: metadata.symbol,
    address: market.vault,
    decimals: metadata.decimals,
    name: metadata.name,
  };
  return {
    id: market.id,
    providerId: market.providerId,
    chainId: String(market.chainId),
    network: market.network,
    address: market.vault,
    statistics: {
      tvlUsd: reading.tvlUsd ?? null,
      /** Underlying base units held, a decimal string. */
      totalAssets: reading.totalAssets.toString(),
      priceUsd: reading.priceUsd ?? null,
      blockNumber: reading.blockNumber.toString(),
    },
    metadata: {
      name,
      description: `${name}: ERC-4626 ${market.type} for ${token.symbol} on ${market.network}`,
      token,
      shareToken,
      logoURI: '',
      documentation: '',
      underMaintenance: false,
      deprecated: false,
      supportedStandards: ['ERC4626'],
    },
    token,
    tokens: [token],
    inputTokens: [token],
    outputToken: { ...shareToken, chainId: token.chainId, network: market.network },
    // Vault yield accrues into the share price: nothing to claim, nothing scheduled.
    mechanics: {
      type: market.type,
      standard: 'ERC4626',
      rewardSchedule: 'continuous',
      rewardClaiming: 'auto',
    },
    status: { enter: true, exit: true },
    // Enter and exit actions take a receiver other than the wallet (args.receiverAddress).
    supportsBeneficiary: true,
  };
}

/** The seed spec's Market. */
export function toSpecMarket(reading: MarketReading) {
  return { ...common(reading), rewardRate: reading.rewardRate, rewardRateDetails: details(reading) };
}

/** The 0.18.4 client's YieldMarket. */
export function toClientMarket(reading: MarketReading) {
  return { ...common(reading), rewardRate: details(reading) };
}
