/** The tokens a chain lists, as TokenInfo: configured order, featured first, native (zero address) included. */
import { zeroAddress } from 'viem';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { TokenInfo } from '../schemas/catalogue.ts';

export function listedTokens(chain: ChainConfig): TokenInfo[] {
  const bridging = Boolean(chain.contracts.originSettler && chain.contracts.destinationSettler);
  const tokens: TokenInfo[] = chain.tokens.map((t) => {
    const info: TokenInfo = {
      chainId: chain.chainId,
      address: t.address,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      supportsBridging: t.supportsBridging ?? bridging,
      featured: t.featured ?? false,
    };
    if (t.logoUri) info.logoUri = t.logoUri;
    return info;
  });
  if (!tokens.some((t) => t.address.toLowerCase() === zeroAddress)) {
    tokens.unshift({
      chainId: chain.chainId,
      address: zeroAddress,
      name: chain.nativeCurrency.name,
      symbol: chain.nativeCurrency.symbol,
      decimals: chain.nativeCurrency.decimals,
      supportsBridging: bridging,
      featured: true,
    });
  }
  // Stable sort: featured first, configured order otherwise; featureIndex is the place in that order.
  tokens.sort((a, b) => Number(b.featured) - Number(a.featured));
  return tokens.map((token, featureIndex) => ({ ...token, featureIndex }));
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
