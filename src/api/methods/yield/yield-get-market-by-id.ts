/** YieldGetMarketById on the wire: one market read live, in the 0.18.4 client's form (YieldGetMarkets' `items`). */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toClientMarket } from './to-wire-market.ts';

export function createYieldGetMarketById(service: YieldService): Handler<'YieldGetMarketById'> {
  return async ({ marketId }) => ({ market: toClientMarket(await service.getMarket(marketId)) });
}
