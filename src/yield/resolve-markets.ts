/**
 * The market registry from configuration: every chain's explicit `yieldMarkets`, plus every contract whose
 * name ends in `Vault` (the devnet's `usdcVault`, `daiVault`) with the defaults. One market per
 * (chain, vault); an explicit entry wins over a named contract.
 */
import { type Address, isAddress } from 'viem';
import type { ChainConfig, YieldMarketConfig } from '../internal/config-types.ts';
import { ConfigError } from '../internal/errors.ts';
import { DEFAULT_PROVIDER_ID, VAULT_CONTRACT_SUFFIX } from './constants.ts';
import { marketId } from './market-id.ts';
import type { MarketConfig, MarketType } from './types.ts';

/** Provider ids become part of market ids (split on `-` by nobody, but kept URL- and filter-friendly). */
const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9_.]*$/;

export function resolveMarkets(chains: readonly ChainConfig[]): MarketConfig[] {
  const markets = new Map<string, MarketConfig>();
  for (const chain of chains) {
    for (const [name, address] of Object.entries(chain.contracts)) {
      if (!name.endsWith(VAULT_CONTRACT_SUFFIX) || !address) continue;
      const market = toMarket(chain, { vault: address }, `chains[${chain.chainId}].contracts.${name}`);
      markets.set(key(market), market);
    }
    (chain.yieldMarkets ?? []).forEach((entry, i) => {
      const market = toMarket(chain, entry, `chains[${chain.chainId}].yieldMarkets[${i}]`);
      markets.set(key(market), market);
    });
  }
  return [...markets.values()].sort((a, b) => a.chainId - b.chainId || a.id.localeCompare(b.id));
}

const key = (m: MarketConfig) => `${m.chainId}:${m.vault.toLowerCase()}`;

function toMarket(chain: ChainConfig, entry: YieldMarketConfig, where: string): MarketConfig {
  if (typeof entry !== 'object' || entry === null) throw new ConfigError(`${where}: must be an object`);
  if (typeof entry.vault !== 'string' || !isAddress(entry.vault, { strict: false })) {
    throw new ConfigError(`${where}.vault: must be a 20-byte hex address`, {
      details: { vault: entry.vault },
    });
  }
  const providerId = entry.providerId ?? DEFAULT_PROVIDER_ID;
  if (typeof providerId !== 'string' || !PROVIDER_ID_PATTERN.test(providerId)) {
    throw new ConfigError(`${where}.providerId: must be lower-case letters, digits, '_' or '.'`, {
      details: { providerId },
    });
  }
  const type: MarketType = entry.type ?? 'vault';
  if (type !== 'vault' && type !== 'lending') {
    throw new ConfigError(`${where}.type: must be vault or lending`, { details: { type } });
  }
  if (entry.name !== undefined && typeof entry.name !== 'string') {
    throw new ConfigError(`${where}.name: must be a string`);
  }
  const vault = entry.vault as Address;
  return {
    id: marketId(providerId, chain.chainId, vault),
    chainId: chain.chainId,
    network: chain.name,
    vault,
    providerId,
    type,
    name: entry.name,
  };
}
