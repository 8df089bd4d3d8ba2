/**
 * The best route for one swap leg across every provider's pool paths (Uniswap V2 and V3 at every fee tier,
 * direct or through one token), single or split across up to three paths that share no pool, compared net
 * of gas: each route's gas, valued in the leg's input token, comes off the amount it has to swap
 * (EXACT_INPUT) or is added to what it spends (EXACT_OUTPUT). A split is taken only when its extra output
 * beats its extra gas. docs/routing.md, "Best route".
 */
import type { ChainConfig } from '../../internal/config-types.ts';
import { APPROVE_GAS, SWAP_ROUTER02_BASE_GAS } from '../../providers/gas.ts';
import {
  type PathQuote,
  ProviderId,
  type SwapAlternative,
  type SwapPath,
  type SwapQuote,
  type SwapQuoteRequest,
} from '../../providers/types.ts';
import { InsufficientLiquidityError, UnsupportedRouteError } from './errors.ts';
import { disjointPaths, MAX_SPLIT_PARTS, SPLIT_CHUNKS, splitAmount } from './split-swap-route.ts';

/** Most alternatives a quote lists per leg (the best ones): enough to see why the route won. */
const MAX_ALTERNATIVES = 8;

interface Route {
  parts: { path: SwapPath; quote: PathQuote }[];
  gas: bigint;
  via: SwapQuote['via'];
  amountIn: bigint;
  amountOut: bigint;
  /** Higher is better: the output (EXACT_INPUT) or minus input and gas (EXACT_OUTPUT). */
  score: bigint;
}

export async function chooseSwapRoute(
  chain: ChainConfig,
  request: SwapQuoteRequest,
  allPaths: readonly SwapPath[],
): Promise<SwapQuote> {
  const paths = request.only ? allPaths.filter((p) => p.provider === request.only) : allPaths;
  if (paths.length === 0) {
    throw new UnsupportedRouteError(
      `no ${request.only ?? 'Uniswap'} pool path from ${request.tokenIn} to ${request.tokenOut} on chain ${chain.chainId}`,
      { details: { chainId: chain.chainId, tokenIn: request.tokenIn, tokenOut: request.tokenOut } },
    );
  }
  if (request.sameRouteAs) return requote(chain, request, request.sameRouteAs, paths);
  const gasValue = request.gasValue ?? (() => 0n);
  const net = (route: Route | undefined) => netOfGas(chain, request, gasValue, route);

  const singles = await Promise.all(
    paths.map((p) => routeAt(chain, request, [p], [request.amount]).then(net)),
  );
  const routes = singles.filter((r): r is Route => r !== undefined);
  for (const set of await splitSets(request, paths, singles)) {
    const amounts = await splitAmount(set, request.tradeType, request.amount);
    if (!amounts) continue;
    const used = set.filter((_, i) => amounts[i]! > 0n);
    if (used.length < 2) continue;
    const split = await net(
      await routeAt(
        chain,
        request,
        used,
        amounts.filter((a) => a > 0n),
      ),
    );
    if (split) routes.push(split);
  }
  routes.sort((a, b) => (b.score > a.score ? 1 : b.score < a.score ? -1 : 0));
  const best = routes[0];
  if (!best) throw insufficient(chain, request);
  const alternatives = routes.slice(1, 1 + MAX_ALTERNATIVES).map(alternative);
  return toSwapQuote(chain, request, best, alternatives);
}

/** The path sets worth splitting across: the best disjoint paths, three and the first two of them. */
async function splitSets(
  request: SwapQuoteRequest,
  paths: readonly SwapPath[],
  singles: readonly (Route | undefined)[],
): Promise<SwapPath[][]> {
  if (paths.length < 2) return [];
  // Paths that cannot take the whole order may still take a part: those rank by how well they serve one chunk.
  const chunk = (request.amount * 1n) / SPLIT_CHUNKS;
  const rank = await Promise.all(
    paths.map(async (path, i) => {
      const whole = singles[i];
      if (whole) return { path, serves: true, score: whole.score };
      const q = chunk > 0n ? await path.quote(request.tradeType, chunk) : undefined;
      const score = q ? (request.tradeType === 'EXACT_INPUT' ? q.amountOut : -q.amountIn) : undefined;
      return { path, serves: false, score };
    }),
  );
  const ranked = rank
    .filter((r) => r.score !== undefined)
    .sort((a, b) =>
      a.serves !== b.serves ? (a.serves ? -1 : 1) : b.score! > a.score! ? 1 : b.score! < a.score! ? -1 : 0,
    )
    .map((r) => r.path);
  const picked = disjointPaths(ranked);
  const sets: SwapPath[][] = [];
  for (let size = Math.min(picked.length, MAX_SPLIT_PARTS); size >= 2; size--)
    sets.push(picked.slice(0, size));
  return sets;
}

/** The route's parts quoted at the given amounts, with the gas of the router that would run them. */
async function routeAt(
  chain: ChainConfig,
  request: SwapQuoteRequest,
  paths: readonly SwapPath[],
  amounts: readonly bigint[],
): Promise<Route | undefined> {
  const quotes = await Promise.all(paths.map((p, i) => p.quote(request.tradeType, amounts[i]!)));
  if (quotes.some((q) => q === undefined)) return undefined;
  const parts = paths.map((path, i) => ({ path, quote: quotes[i]! }));
  const alone = parts.length === 1 && parts[0]!.path.provider === ProviderId.UniswapV2;
  const via: SwapQuote['via'] =
    alone && chain.contracts.uniswapV2Router ? 'UNISWAP_V2_ROUTER' : 'SWAP_ROUTER_02';
  if (via === 'SWAP_ROUTER_02' && !chain.contracts.uniswapSwapRouter02) return undefined;
  const partsGas = parts.reduce((sum, p) => sum + p.quote.gas, 0n);
  const gas = APPROVE_GAS + partsGas + (via === 'SWAP_ROUTER_02' ? SWAP_ROUTER02_BASE_GAS : 0n);
  const amountIn = parts.reduce((sum, p) => sum + p.quote.amountIn, 0n);
  const amountOut = parts.reduce((sum, p) => sum + p.quote.amountOut, 0n);
  return { parts, gas, via, amountIn, amountOut, score: 0n };
}

/**
 * EXACT_INPUT: the route quoted again on what is left of the amount once its gas is paid (in the input
 * token), scored by its output. EXACT_OUTPUT: scored by its input plus its gas.
 */
async function netOfGas(
  chain: ChainConfig,
  request: SwapQuoteRequest,
  gasValue: (gas: bigint) => bigint,
  route: Route | undefined,
): Promise<Route | undefined> {
  if (!route) return undefined;
  if (request.tradeType === 'EXACT_OUTPUT')
    return { ...route, score: -(route.amountIn + gasValue(route.gas)) };
  const cost = gasValue(route.gas);
  if (cost === 0n) return { ...route, score: route.amountOut };
  const budget = request.amount - cost;
  if (budget <= 0n) return undefined;
  const amounts = share(
    budget,
    route.parts.map((p) => p.quote.amountIn),
  );
  const paid = await routeAt(
    chain,
    request,
    route.parts.map((p) => p.path),
    amounts,
  );
  return paid && { ...paid, score: paid.amountOut };
}

/** The same paths and shares at a new amount: the plan's second pass, once the fee is known. */
async function requote(
  chain: ChainConfig,
  request: SwapQuoteRequest,
  previous: SwapQuote,
  paths: readonly SwapPath[],
): Promise<SwapQuote> {
  const key = (pools: readonly string[]) => pools.map((p) => p.toLowerCase()).join();
  const matched = previous.parts.map((part) => paths.find((p) => key(p.pools) === key(part.pools)));
  if (matched.some((p) => p === undefined)) throw insufficient(chain, request);
  const weights = previous.parts.map((p) => (request.tradeType === 'EXACT_INPUT' ? p.amountIn : p.amountOut));
  const route = await routeAt(chain, request, matched as SwapPath[], share(request.amount, weights));
  if (!route) throw insufficient(chain, request);
  return toSwapQuote(chain, request, route, previous.alternatives ?? []);
}

/** `total` in proportion to `weights` (rounded down), the remainder to the largest share. */
export function share(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  const shares = weights.map((w) => (sum === 0n ? 0n : (total * w) / sum));
  let largest = 0;
  shares.forEach((s, i) => {
    if (s > shares[largest]!) largest = i;
  });
  shares[largest]! += total - shares.reduce((a, b) => a + b, 0n);
  return shares;
}

function toSwapQuote(
  chain: ChainConfig,
  request: SwapQuoteRequest,
  route: Route,
  alternatives: readonly SwapAlternative[],
): SwapQuote {
  const parts = [...route.parts].sort((a, b) =>
    b.quote.amountIn > a.quote.amountIn ? 1 : b.quote.amountIn < a.quote.amountIn ? -1 : 0,
  );
  const main = parts[0]!;
  const router =
    route.via === 'UNISWAP_V2_ROUTER'
      ? chain.contracts.uniswapV2Router!
      : chain.contracts.uniswapSwapRouter02!;
  return {
    provider: main.path.provider,
    chainId: chain.chainId,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    tradeType: request.tradeType,
    router,
    via: route.via,
    path: main.path.tokens,
    parts: parts.map(({ path, quote }) => ({
      provider: path.provider,
      tokens: path.tokens,
      pools: path.pools,
      fees: path.fees,
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      feeAmount: quote.feeAmount,
    })),
    alternatives,
    amountIn: route.amountIn,
    amountOut: route.amountOut,
    spotAmountOut: parts.reduce((sum, p) => sum + p.quote.spotAmountOut, 0n),
    feeAmount: parts.reduce((sum, p) => sum + p.quote.feeAmount, 0n),
    gasEstimate: route.gas,
  };
}

function alternative(route: Route): SwapAlternative {
  return {
    parts: route.parts.map(({ path }) => ({ provider: path.provider, tokens: path.tokens, fees: path.fees })),
    amountIn: route.amountIn,
    amountOut: route.amountOut,
    gasEstimate: route.gas,
  };
}

function insufficient(chain: ChainConfig, request: SwapQuoteRequest): InsufficientLiquidityError {
  const verb = request.tradeType === 'EXACT_INPUT' ? 'take' : 'produce';
  return new InsufficientLiquidityError(
    `the pools on chain ${chain.chainId} cannot ${verb} ${request.amount} base units between ${request.tokenIn} and ${request.tokenOut}`,
    {
      details: {
        chainId: chain.chainId,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        amount: request.amount.toString(),
      },
    },
  );
}
