/**
 * What the page knows about chains and tokens, read once per access key (GetChains, GetTokenList): names
 * for chain ids, and symbols and decimals for token addresses.
 */
import type { Api } from './api.ts';
import type { ChainInfo } from './types.ts';

const NATIVE = '0x0000000000000000000000000000000000000000';

export interface TokenInfo {
  symbol: string;
  decimals: number;
}

export interface Catalogue {
  chains: ChainInfo[];
  chainName(chainId: number): string;
  /** The token's symbol and decimals; undefined for a token this server does not list. */
  token(chainId: number, address: string): TokenInfo | undefined;
}

export async function loadCatalogue(api: Api): Promise<Catalogue> {
  const [{ chains }, { tokens }] = await Promise.all([
    api.call<{ chains: ChainInfo[] }>('GetChains'),
    api.call<{ tokens: { chainId: number; address: string; symbol: string; decimals: number }[] }>(
      'GetTokenList',
      { chainIds: [] },
    ),
  ]);
  const byChain = new Map(chains.map((c) => [c.id, c]));
  const byToken = new Map(tokens.map((t) => [`${t.chainId}:${t.address.toLowerCase()}`, t]));
  return {
    chains,
    chainName: (chainId) => byChain.get(chainId)?.name ?? `chain ${chainId}`,
    token(chainId, address) {
      const listed = byToken.get(`${chainId}:${address.toLowerCase()}`);
      if (listed) return { symbol: listed.symbol, decimals: listed.decimals };
      const chain = byChain.get(chainId);
      if (address.toLowerCase() === NATIVE && chain)
        return { symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals };
      return undefined;
    },
  };
}
