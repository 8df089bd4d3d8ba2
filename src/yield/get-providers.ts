/** YieldGetProviders: the providers the configured markets name, in id order, paged like the markets. */
import { parsePage } from './parse-market-query.ts';
import {
  type ProviderSummary,
  type ProvidersDeps,
  providerIds,
  readProviderSummary,
} from './read-provider-summary.ts';

export interface ProviderPage {
  providers: ProviderSummary[];
  total: number;
  offset: number;
  limit: number;
}

export function createGetProviders(
  deps: ProvidersDeps,
): (input: { limit?: number | undefined; offset?: number | undefined }) => Promise<ProviderPage> {
  const ids = providerIds(deps.markets);
  return async (input) => {
    const { limit, offset } = parsePage(input);
    const page = ids.slice(offset, offset + limit);
    const providers = await Promise.all(page.map((id) => readProviderSummary(deps, id)));
    return { providers, total: ids.length, offset, limit };
  };
}
