/** YieldGetProvider: one provider by id, case-insensitive; ProviderNotFoundError when no market names it. */
import { ProviderNotFoundError } from './errors.ts';
import {
  type ProviderSummary,
  type ProvidersDeps,
  providerIds,
  readProviderSummary,
} from './read-provider-summary.ts';

export function createGetProvider(deps: ProvidersDeps): (providerId: string) => Promise<ProviderSummary> {
  const ids = providerIds(deps.markets);
  return async (providerId) => {
    const id = ids.find((known) => known === providerId.trim().toLowerCase());
    if (!id) throw new ProviderNotFoundError(providerId);
    return readProviderSummary(deps, id);
  };
}
