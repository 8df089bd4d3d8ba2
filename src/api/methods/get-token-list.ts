/**
 * GetTokenList: the configured tokens of the asked chains. `searchQuery` matches symbol, name or
 * address (case-insensitive substring); `tokenAddress` picks one token; `excludeTokens` drops
 * addresses; `limit` applies per chain; featured tokens come first. Unknown chain ids are skipped
 * unless none of the asked chains is known (then UnsupportedNetwork). `includeAllListed` and
 * `includeExternal` are accepted and change nothing: this server lists only configured tokens.
 */

import { ChainNotSupportedError } from '../../internal/errors.ts';
import type { ApiDeps, Handler } from '../context.ts';
import type { TokenInfo } from '../schemas/catalogue.ts';
import { listedTokens, sameAddress } from './listed-tokens.ts';

export function createGetTokenList(deps: ApiDeps): Handler<'GetTokenList'> {
  const byChain = new Map(deps.chains.map((c) => [c.chainId, listedTokens(c)]));
  return (input) => {
    const asked = input.chainIds.length > 0 ? input.chainIds : deps.chains.map((c) => c.chainId);
    const known = asked.filter((id) => byChain.has(id));
    if (known.length === 0) throw new ChainNotSupportedError('chainIds[0]', asked[0]!);
    const query = input.searchQuery?.trim().toLowerCase();
    const excluded = new Set((input.excludeTokens ?? []).map((a) => a.toLowerCase()));
    const tokens: TokenInfo[] = [];
    for (const chainId of new Set(known)) {
      let list = byChain.get(chainId)!.filter((t) => !excluded.has(t.address.toLowerCase()));
      if (input.tokenAddress) list = list.filter((t) => sameAddress(t.address, input.tokenAddress!));
      if (query) list = list.filter((t) => matches(t, query));
      tokens.push(...(input.limit === undefined ? list : list.slice(0, input.limit)));
    }
    return { tokens };
  };
}

function matches(token: TokenInfo, query: string): boolean {
  return (
    token.symbol.toLowerCase().includes(query) ||
    token.name.toLowerCase().includes(query) ||
    token.address.toLowerCase().includes(query)
  );
}
