/** Yield markets (ERC-4626 vaults from configuration) and their enter actions: YieldGetMarkets, YieldCreateEnterAction. */
export { annualiseGrowth } from './annualise-growth.ts';
export type { EnterAction, EnterRequest, WalletCall } from './create-enter-action.ts';
export { createYieldService, type YieldService } from './create-yield-service.ts';
export type { MarketPage } from './get-markets.ts';
export { marketId } from './market-id.ts';
export type { MarketQueryInput } from './parse-market-query.ts';
export { resolveMarkets } from './resolve-markets.ts';
export type { MarketConfig, MarketReading, MarketType, YieldServiceDeps } from './types.ts';
