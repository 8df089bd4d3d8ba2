/** GetExactInputRoutes: the destination tokens reachable from the given origin token. */
import { type ApiDeps, type Handler, requireChain } from '../context.ts';
import { sameAddress } from './listed-tokens.ts';
import { reachableTokens, requireListedToken } from './routes.ts';

export const createGetExactInputRoutes =
  (deps: ApiDeps): Handler<'GetExactInputRoutes'> =>
  (input) => {
    const origin = requireChain(deps, input.originChainId, 'originChainId');
    const token = requireListedToken(
      deps,
      input.originChainId,
      input.originTokenAddress,
      'originTokenAddress',
    );
    const chains =
      input.destinationChainId === undefined
        ? deps.chains
        : [requireChain(deps, input.destinationChainId, 'destinationChainId')];
    let tokens = reachableTokens(origin, token, chains);
    if (input.destinationTokenAddress) {
      tokens = tokens.filter((t) => sameAddress(t.address, input.destinationTokenAddress!));
    }
    return { tokens };
  };
