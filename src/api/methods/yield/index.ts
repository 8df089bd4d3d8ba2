/** The yield methods on the wire, over the yield service (src/yield/). */
import type { YieldService } from '../../../yield/index.ts';
import type { ApiServices } from '../../context.ts';
import { createYieldCreateEnterAction } from './yield-create-enter-action.ts';
import { createYieldGetMarkets } from './yield-get-markets.ts';

export function createYieldHandlers(
  service: YieldService,
): Required<Pick<ApiServices, 'YieldGetMarkets' | 'YieldCreateEnterAction'>> {
  return {
    YieldGetMarkets: createYieldGetMarkets(service),
    YieldCreateEnterAction: createYieldCreateEnterAction(service),
  };
}
