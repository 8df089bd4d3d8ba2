/** Market ids: `<providerId>-<chainId>-<vault address, lower case>`, e.g. `erc4626-7770001-0xab…`. */
import type { Address } from 'viem';

export function marketId(providerId: string, chainId: number, vault: Address): string {
  return `${providerId}-${chainId}-${vault.toLowerCase()}`;
}

/** Ids are matched without regard to the address's case (a checksummed copy is the same market). */
export function normaliseMarketId(id: string): string {
  return id.trim().toLowerCase();
}
