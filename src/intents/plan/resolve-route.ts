/**
 * The shape of a route, before any amount: which chains and tokens, whether the origin wraps native, which
 * swaps run where, which token the bridge carries, and how the destination delivers (transfer, native send,
 * or a contract call). Chooses the bridged token: the same token when both ends hold it, else the chain's USD
 * reference token (the solver's main inventory), else the origin or destination token.
 */
import { type Address, type Hex, isAddressEqual, zeroAddress } from 'viem';
import type { ChainConfig, TokenConfig } from '../../internal/config-types.ts';
import { UnsupportedRouteError } from '../../providers/errors.ts';
import type { BridgeProvider, SwapRouter } from '../../providers/types.ts';
import { checkRecipient } from './check-recipient.ts';
import { UnsupportedChainError, UnsupportedTokenError } from './errors.ts';
import type { PlanRequest } from './types.ts';

export interface SwapLeg {
  chain: ChainConfig;
  tokenIn: Address;
  tokenOut: Address;
  /** Gas of the leg's route: 0 until the route is chosen (quote-legs.ts sets it). */
  gas: bigint;
}

export interface RouteShape {
  origin: ChainConfig;
  destination: ChainConfig;
  originToken: TokenConfig;
  destinationToken: TokenConfig;
  crossChain: boolean;
  /** Native in: the origin wraps it into WETH before a swap or the bridge. */
  wrapOnOrigin: boolean;
  originSwap?: SwapLeg | undefined;
  bridge?: { inputToken: TokenConfig; outputToken: TokenConfig } | undefined;
  destinationSwap?: SwapLeg | undefined;
  /** Native out with no swap: the final stage unwraps WETH and sends native. */
  unwrapAtEnd: boolean;
  /** Native out after a swap: the router unwraps and pays the recipient. */
  nativeOutSwap: boolean;
  /** Who receives the tokens when there is no call. */
  recipient: Address;
  call?: { target: Address; data: Hex; value: bigint; approveAddress?: Address | undefined } | undefined;
}

const isNative = (token: Address) => isAddressEqual(token, zeroAddress);

export function findChain(chains: readonly ChainConfig[], chainId: number, field: string): ChainConfig {
  const chain = chains.find((c) => c.chainId === chainId);
  if (!chain) {
    throw new UnsupportedChainError(`${field}: chain ${chainId} is not supported by this server`, {
      details: { field, chainId, supported: chains.map((c) => c.chainId) },
    });
  }
  return chain;
}

export function findToken(chain: ChainConfig, address: Address, field: string): TokenConfig {
  const listed = chain.tokens.find((t) => isAddressEqual(t.address, address));
  if (listed) return listed;
  if (isNative(address)) return { ...chain.nativeCurrency, address: zeroAddress };
  throw new UnsupportedTokenError(`${field}: token ${address} is not listed on chain ${chain.chainId}`, {
    details: { field, chainId: chain.chainId, token: address },
  });
}

function bySymbol(chain: ChainConfig, symbol: string): TokenConfig | undefined {
  return chain.tokens.find(
    (t) => t.symbol === symbol && !isNative(t.address) && t.supportsBridging !== false,
  );
}

/** The ERC-20 a token is handled as inside accounts: itself, or WETH for native. */
function workToken(chain: ChainConfig, token: TokenConfig, field: string): TokenConfig {
  if (!isNative(token.address)) return token;
  const weth = chain.tokens.find(
    (t) => chain.contracts.weth && isAddressEqual(t.address, chain.contracts.weth),
  );
  if (!weth) {
    throw new UnsupportedRouteError(
      `${field}: chain ${chain.chainId} has no WETH, so its native currency cannot be routed`,
      { details: { field } },
    );
  }
  return weth;
}

export interface ResolveDeps {
  chains: readonly ChainConfig[];
  swap: SwapRouter;
  bridge: BridgeProvider;
}

export async function resolveRoute(request: PlanRequest, deps: ResolveDeps): Promise<RouteShape> {
  return (await resolveRoutes(request, deps, false))[0]!;
}

/**
 * Every workable shape, in the order RECOMMENDED takes them: the first is resolveRoute's. Across chains each
 * bridged token that connects the two ends is a shape (swap at the origin, at the destination, or none);
 * with `alternatives` false the search stops at the first. The planner quotes the alternatives and picks
 * one by the request's preference (choose-route.ts).
 */
export async function resolveRoutes(
  request: PlanRequest,
  deps: ResolveDeps,
  alternatives: boolean,
): Promise<RouteShape[]> {
  const origin = findChain(deps.chains, request.originChainId, 'originChainId');
  const destination = findChain(deps.chains, request.destinationChainId, 'destinationChainId');
  const originToken = findToken(origin, request.originTokenAddress, 'originTokenAddress');
  const destinationToken = findToken(destination, request.destinationTokenAddress, 'destinationTokenAddress');
  const hasCall = request.destinationCallData !== undefined && request.destinationCallData !== '0x';
  checkRecipient(request, destination, hasCall);
  const target = request.destinationToAddress ?? request.ownerAddress;
  const call = hasCall
    ? {
        target,
        data: request.destinationCallData as Hex,
        value: request.destinationCallValue ?? 0n,
        approveAddress: request.destinationApproveAddress,
      }
    : undefined;
  if (call && isNative(destinationToken.address)) {
    throw new UnsupportedRouteError(
      'destinationTokenAddress: a destination call must receive an ERC-20 token; the native currency cannot be approved or filled into calldata',
      { details: { field: 'destinationTokenAddress' } },
    );
  }
  const crossChain = origin.chainId !== destination.chainId;
  const base = { origin, destination, originToken, destinationToken, crossChain, recipient: target, call };
  return crossChain ? await crossChainShapes(base, deps, alternatives) : [await sameChainShape(base, deps)];
}

type ShapeBase = Pick<
  RouteShape,
  'origin' | 'destination' | 'originToken' | 'destinationToken' | 'crossChain' | 'recipient' | 'call'
>;

async function sameChainShape(base: ShapeBase, deps: ResolveDeps): Promise<RouteShape> {
  const { origin: chain, originToken, destinationToken } = base;
  const none = { wrapOnOrigin: false, unwrapAtEnd: false, nativeOutSwap: false };
  if (isAddressEqual(originToken.address, destinationToken.address)) return { ...base, ...none };
  const inWork = workToken(chain, originToken, 'originTokenAddress');
  const outWork = workToken(chain, destinationToken, 'destinationTokenAddress');
  const wrapOnOrigin = isNative(originToken.address);
  if (isAddressEqual(inWork.address, outWork.address)) {
    // ETH ↔ WETH on one chain: a wrap or an unwrap, no swap.
    return { ...base, ...none, wrapOnOrigin, unwrapAtEnd: isNative(destinationToken.address) };
  }
  const originSwap = await swapLeg(deps.swap, chain, inWork.address, outWork.address);
  return { ...base, ...none, wrapOnOrigin, originSwap, nativeOutSwap: isNative(destinationToken.address) };
}

async function crossChainShapes(
  base: ShapeBase,
  deps: ResolveDeps,
  alternatives: boolean,
): Promise<RouteShape[]> {
  const { origin, destination, originToken, destinationToken } = base;
  if (!deps.bridge.supports(origin, destination)) {
    throw new UnsupportedRouteError(
      `destinationChainId: no bridge connects chain ${origin.chainId} to chain ${destination.chainId} (settlers missing)`,
      { details: { field: 'destinationChainId' } },
    );
  }
  const inWork = workToken(origin, originToken, 'originTokenAddress');
  const outWork = workToken(destination, destinationToken, 'destinationTokenAddress');
  const usd = origin.tokens.find((t) => t.isUsdReference)?.symbol;
  const candidates = [
    inWork.symbol === outWork.symbol ? inWork.symbol : undefined,
    usd,
    inWork.symbol,
    outWork.symbol,
  ];
  const found: RouteShape[] = [];
  for (const symbol of new Set(candidates)) {
    if (!symbol) continue;
    const inputToken = bySymbol(origin, symbol);
    const outputToken = bySymbol(destination, symbol);
    if (!inputToken || !outputToken) continue;
    // The two ends' pool lookups are independent reads on different chains: side by side.
    const [originSwap, destinationSwap] = await Promise.all([
      isAddressEqual(inputToken.address, inWork.address)
        ? undefined
        : swapLeg(deps.swap, origin, inWork.address, inputToken.address, true),
      isAddressEqual(outputToken.address, outWork.address)
        ? undefined
        : swapLeg(deps.swap, destination, outputToken.address, outWork.address, true),
    ]);
    if (originSwap === null || destinationSwap === null) continue;
    const nativeOut = isNative(destinationToken.address);
    found.push({
      ...base,
      wrapOnOrigin: isNative(originToken.address),
      originSwap,
      bridge: { inputToken, outputToken },
      destinationSwap,
      unwrapAtEnd: nativeOut && !destinationSwap,
      nativeOutSwap: nativeOut && destinationSwap !== undefined,
    });
    if (!alternatives) return found;
  }
  if (found.length > 0) return found;
  throw new UnsupportedRouteError(
    `destinationTokenAddress: no bridgeable token connects ${originToken.symbol} on chain ${origin.chainId} to ${destinationToken.symbol} on chain ${destination.chainId}`,
    {
      details: {
        field: 'destinationTokenAddress',
        originToken: originToken.address,
        destinationToken: destinationToken.address,
      },
    },
  );
}

async function swapLeg(
  swap: SwapRouter,
  chain: ChainConfig,
  tokenIn: Address,
  tokenOut: Address,
): Promise<SwapLeg>;
async function swapLeg(
  swap: SwapRouter,
  chain: ChainConfig,
  tokenIn: Address,
  tokenOut: Address,
  optional: true,
): Promise<SwapLeg | null>;
async function swapLeg(
  swap: SwapRouter,
  chain: ChainConfig,
  tokenIn: Address,
  tokenOut: Address,
  optional = false,
) {
  if (await swap.canSwap(chain, tokenIn, tokenOut)) return { chain, tokenIn, tokenOut, gas: 0n };
  if (optional) return null;
  // Only a same-chain swap requires its leg, and what it cannot reach is the destination token.
  throw new UnsupportedRouteError(
    `destinationTokenAddress: no pool path from ${tokenIn} to ${tokenOut} on chain ${chain.chainId}`,
    { details: { field: 'destinationTokenAddress', chainId: chain.chainId, tokenIn, tokenOut } },
  );
}
