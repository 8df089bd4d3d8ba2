/** Yield markets (ERC-4626 vaults from configuration) and their enter actions: YieldGetMarkets, YieldCreateEnterAction. */
export { annualiseGrowth } from './annualise-growth.ts';
export { createYieldService, type YieldService } from './create-yield-service.ts';
export { marketId } from './market-id.ts';
export { resolveMarkets } from './resolve-markets.ts';
export type { MarketConfig, MarketType, YieldServiceDeps } from './types.ts';
