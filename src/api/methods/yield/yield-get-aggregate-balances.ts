/** YieldGetAggregateBalances on the wire: the positions per query, and the queries that failed in `errors`. */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toWireBalances } from './to-wire-balances.ts';

export function createYieldGetAggregateBalances(service: YieldService): Handler<'YieldGetAggregateBalances'> {
  return async ({ queries }) => {
    const { items, errors } = await service.getAggregateBalances(queries);
    return { items: items.map(toWireBalances), errors };
  };
}
