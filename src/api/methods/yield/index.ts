/** The yield methods on the wire, over the yield service (src/yield/). */
import type { YieldService } from '../../../yield/index.ts';
import type { ApiDeps, ApiServices } from '../../context.ts';
import { createGetEarnPools } from './get-earn-pools.ts';
import { createYieldCreateEnterAction } from './yield-create-enter-action.ts';
import { createYieldCreateExitAction } from './yield-create-exit-action.ts';
import { createYieldGetAggregateBalances } from './yield-get-aggregate-balances.ts';
import { createYieldGetMarketById } from './yield-get-market-by-id.ts';
import { createYieldGetMarkets } from './yield-get-markets.ts';
import { createYieldGetNetworks } from './yield-get-networks.ts';
import { createYieldGetProvider } from './yield-get-provider.ts';
import { createYieldGetProviders } from './yield-get-providers.ts';

export type YieldMethod =
  | 'YieldGetMarkets'
  | 'YieldGetMarketById'
  | 'YieldCreateEnterAction'
  | 'YieldCreateExitAction'
  | 'YieldGetAggregateBalances'
  | 'YieldGetProviders'
  | 'YieldGetProvider'
  | 'YieldGetNetworks'
  | 'GetEarnPools';

export function createYieldHandlers(
  service: YieldService,
  deps: Pick<ApiDeps, 'chainById' | 'now'>,
): Required<Pick<ApiServices, YieldMethod>> {
  return {
    YieldGetMarkets: createYieldGetMarkets(service),
    YieldGetMarketById: createYieldGetMarketById(service),
    YieldCreateEnterAction: createYieldCreateEnterAction(service),
    YieldCreateExitAction: createYieldCreateExitAction(service),
    YieldGetAggregateBalances: createYieldGetAggregateBalances(service),
    YieldGetProviders: createYieldGetProviders(service),
    YieldGetProvider: createYieldGetProvider(service),
    YieldGetNetworks: createYieldGetNetworks(service),
    GetEarnPools: createGetEarnPools(service, deps.chainById, deps.now),
  };
}
