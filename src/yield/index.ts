/** Yield markets (ERC-4626 vaults from configuration): listings, enter and exit actions, positions, providers. */
export { annualiseGrowth } from './annualise-growth.ts';
export type { EnterAction, EnterRequest, WalletCall } from './create-enter-action.ts';
export type { ExitAction, ExitRequest } from './create-exit-action.ts';
export { createYieldService, type YieldService } from './create-yield-service.ts';
export { createMarketLookup, type MarketLookup } from './find-market.ts';
export type { YieldNetwork } from './find-network.ts';
export type {
  AggregateBalances,
  BalanceError,
  BalanceQuery,
  MarketBalances,
  PositionReport,
} from './get-aggregate-balances.ts';
export type { EarnPoolsQuery } from './get-earn-pools.ts';
export type { MarketPage } from './get-markets.ts';
export type { ProviderPage } from './get-providers.ts';
export { marketId } from './market-id.ts';
export type { MarketQueryInput } from './parse-market-query.ts';
export type { ProviderSummary } from './read-provider-summary.ts';
export { readVault } from './read-vault.ts';
export { resolveMarkets } from './resolve-markets.ts';
export type { MarketConfig, MarketReading, MarketType, VaultMetadata, YieldServiceDeps } from './types.ts';
export { vaultAbi } from './vault-abi.ts';
