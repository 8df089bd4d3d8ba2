/** YieldGetProviders on the wire: a page of the providers the markets name, each with its live TVL. */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toWireProvider } from './to-wire-provider.ts';

export function createYieldGetProviders(service: YieldService): Handler<'YieldGetProviders'> {
  return async (input) => {
    const page = await service.getProviders(input);
    return {
      items: page.providers.map(toWireProvider),
      total: page.total,
      offset: page.offset,
      limit: page.limit,
    };
  };
}
