/** YieldGetMarkets on the wire: the yield service's page of markets in both forms clients read (to-wire-market.ts). */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toClientMarket, toSpecMarket } from './to-wire-market.ts';

export function createYieldGetMarkets(service: YieldService): Handler<'YieldGetMarkets'> {
  return async (input) => {
    const { readings, total, offset, limit } = await service.getMarkets(input);
    return { payload: readings.map(toSpecMarket), items: readings.map(toClientMarket), total, offset, limit };
  };
}
