/**
 * A provider on the wire as the reference's YieldProvider, with Switchyard's `marketIds` and `chainIds`.
 * Logos, websites and references are not configured here: empty.
 */
import type { ProviderSummary } from '../../../yield/index.ts';

/** Display names of the provider ids Switchyard defines itself; any other id is shown as it is configured. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { erc4626: 'ERC-4626 vaults' };

export function toWireProvider(provider: ProviderSummary) {
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
