/**
 * The yield catalogue on the wire: YieldGetMarketById (one market in the 0.18.4 client's form, as
 * YieldGetMarkets' `items`), YieldGetProviders and YieldGetProvider (the reference's YieldProvider, with the
 * provider's market ids and chains), YieldGetNetworks (the chains with markets).
 */
import type { ProviderSummary, YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toClientMarket } from './to-wire-market.ts';

/** Display names of the provider ids Switchyard defines itself; any other id is shown as it is configured. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { erc4626: 'ERC-4626 vaults' };

export function createYieldGetMarketById(service: YieldService): Handler<'YieldGetMarketById'> {
  return async ({ marketId }) => ({ market: toClientMarket(await service.getMarket(marketId)) });
}

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

export function createYieldGetProvider(service: YieldService): Handler<'YieldGetProvider'> {
  return async ({ providerId }) => ({ provider: toWireProvider(await service.getProvider(providerId)) });
}

export function createYieldGetNetworks(service: YieldService): Handler<'YieldGetNetworks'> {
  return () => ({
    networks: service.networks.map((n) => ({
      id: n.id,
      name: n.name,
      category: 'evm',
      logoURI: '',
      chainId: String(n.chainId),
    })),
  });
}

function toWireProvider(provider: ProviderSummary) {
  const name = PROVIDER_NAMES[provider.id] ?? provider.id;
  const count = provider.marketIds.length;
  return {
    id: provider.id,
    name,
    logoURI: '',
    description: `${name}: ${count} market${count === 1 ? '' : 's'} configured on this server`,
    website: '',
    tvlUsd: provider.tvlUsd ?? null,
    type: 'protocol',
    references: [],
    // The receiver of an enter action's shares or an exit's underlying may differ from the wallet.
    supportsBeneficiary: true,
    marketIds: provider.marketIds,
    chainIds: provider.chainIds.map(String),
  };
}
