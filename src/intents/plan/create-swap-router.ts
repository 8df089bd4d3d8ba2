/**
 * The plan's swap router: the Uniswap V2 and V3 providers' paths behind one door (each pair's paths read
 * once per plan), the best route for an amount (choose-swap-route.ts) and the calls that execute it.
 * `only` restricts it to one provider (a request's `swapProvider`).
 */
import type { Address, PublicClient } from 'viem';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { PoolDirectory } from '../../providers/pool-directory.ts';
import { swapCalls } from '../../providers/swap-calls.ts';
import type { ProviderId, SwapPath, SwapRouter } from '../../providers/types.ts';
import { createUniswapV2Provider } from '../../providers/uniswap-v2.ts';
import { createUniswapV3Provider } from '../../providers/uniswap-v3.ts';
import { chooseSwapRoute } from './choose-swap-route.ts';

export function createSwapRouter(deps: {
  getClient(chainId: number): PublicClient;
  only?: ProviderId | undefined;
  directory?: PoolDirectory | undefined;
}): SwapRouter {
  const providers = [createUniswapV2Provider(deps), createUniswapV3Provider(deps)].filter(
    (p) => !deps.only || p.id === deps.only,
  );
  const known = new Map<string, Promise<SwapPath[]>>();
  const pathsOf = (chain: ChainConfig, tokenIn: Address, tokenOut: Address) => {
    const key = `${chain.chainId}:${tokenIn.toLowerCase()}:${tokenOut.toLowerCase()}`;
    let paths = known.get(key);
    if (!paths) {
      paths = Promise.all(providers.map((p) => p.paths(chain, tokenIn, tokenOut))).then((all) => all.flat());
      known.set(key, paths);
    }
    return paths;
  };
  return {
    canSwap: async (chain, tokenIn, tokenOut) => (await pathsOf(chain, tokenIn, tokenOut)).length > 0,
    async quote(request) {
      const paths = await pathsOf(request.chain, request.tokenIn, request.tokenOut);
      return chooseSwapRoute(request.chain, { ...request, only: deps.only }, paths);
    },
    buildCalls: swapCalls,
  };
}
