/**
 * GetExactOutputRoutes: the origin tokens that can pay for the given destination token. Every
 * connection is symmetric here, so these are the tokens reachable from the destination token.
 * `ownerAddress` (filter to tokens the owner holds) needs an indexer and is accepted but not applied.
 */
import { type ApiDeps, type Handler, requireChain } from '../context.ts';
import { sameAddress } from './listed-tokens.ts';
import { reachableTokens, requireListedToken } from './routes.ts';

export const createGetExactOutputRoutes =
  (deps: ApiDeps): Handler<'GetExactOutputRoutes'> =>
  (input) => {
    const destination = requireChain(deps, input.destinationChainId, 'destinationChainId');
    const token = requireListedToken(
      deps,
      input.destinationChainId,
      input.destinationTokenAddress,
      'destinationTokenAddress',
    );
    const chains =
      input.originChainId === undefined
        ? deps.chains
        : [requireChain(deps, input.originChainId, 'originChainId')];
    let tokens = reachableTokens(destination, token, chains);
    if (input.originTokenAddress)
      tokens = tokens.filter((t) => sameAddress(t.address, input.originTokenAddress!));
    return { tokens };
  };
