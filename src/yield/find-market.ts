/**
 * The registry's lookups: a market by id (case-insensitive, MarketNotFoundError naming the field it came
 * from) and by vault on a chain (QuoteIntent's EARN and WITHDRAW modes name a vault instead of an id).
 */
import { type Address, isAddressEqual } from 'viem';
import { MarketNotFoundError } from './errors.ts';
import { normaliseMarketId } from './market-id.ts';
import type { MarketConfig } from './types.ts';

export interface MarketLookup {
  byId(id: string, field?: string): MarketConfig;
  byVault(chainId: number, vault: Address): MarketConfig | undefined;
}

export function createMarketLookup(markets: readonly MarketConfig[]): MarketLookup {
  const byId = new Map(markets.map((m) => [normaliseMarketId(m.id), m]));
  return {
    byId(id, field = 'earnMarketId') {
      const market = byId.get(normaliseMarketId(id));
      if (!market) throw new MarketNotFoundError(id, field);
      return market;
    },
    byVault: (chainId, vault) => markets.find((m) => m.chainId === chainId && isAddressEqual(m.vault, vault)),
  };
}
