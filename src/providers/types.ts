/**
 * Route providers: one implementation per protocol, chosen per leg of a route. A swap provider quotes and
 * builds the calls of a same-chain token exchange; a bridge provider moves one token between chains. Every
 * provider reports its fee in base units and the gas its calls need, so the plan builder can price a route
 * without knowing the protocol.
 */
import type { Address, Hex } from 'viem';
import type { IntentCall } from '../contracts/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';

/** Provider names as they appear in `quote.routeProviders` (RouteProvider strings of the wire format). */
export const ProviderId = {
  UniswapV2: 'UNISWAP_V2',
  UniswapV3: 'UNISWAP_V3',
  Weth: 'WETH',
  Switchyard: 'SWITCHYARD',
} as const;
export type ProviderId = (typeof ProviderId)[keyof typeof ProviderId];
/** What a request may ask for per leg: a provider by name, or AUTO (the builder picks). */
export type ProviderChoice = ProviderId | 'AUTO';

export type TradeType = 'EXACT_INPUT' | 'EXACT_OUTPUT';

/** Who receives a leg's output: the intent account itself (filled at run time) or a fixed address. */
export type LegRecipient = { kind: 'self' } | { kind: 'address'; address: Address };

export interface SwapQuoteRequest {
  chain: ChainConfig;
  /** ERC-20 tokens (native is wrapped before and unwrapped after by the WETH provider or the router). */
  tokenIn: Address;
  tokenOut: Address;
  tradeType: TradeType;
  /** EXACT_INPUT: the input amount; EXACT_OUTPUT: the wanted output amount. */
  amount: bigint;
  /**
   * What `gas` units cost, in base units of tokenOut (EXACT_INPUT) or tokenIn (EXACT_OUTPUT): routes are
   * compared net of their gas. Absent: gas is not weighed.
   */
  gasValue?: ((gas: bigint) => bigint) | undefined;
  /** Quote this route again at the new amount (its paths and split shares) instead of choosing one. */
  sameRouteAs?: SwapQuote | undefined;
  /** Only this provider's paths (a request's `swapProvider`); absent: every provider's. */
  only?: ProviderId | undefined;
}

/** One pool path a swap can take through one protocol: the tokens in order and the pool of each hop. */
export interface SwapPath {
  provider: ProviderId;
  chainId: number;
  /** tokenIn … tokenOut: direct, or through one intermediate token. */
  tokens: readonly Address[];
  /** The pool of each hop: two paths that share none can take parts of one order side by side. */
  pools: readonly Address[];
  /** Each hop's LP fee in pips (3000 = 0.3 %). */
  fees: readonly number[];
  /** From the plan's snapshot of the pools; undefined when they cannot serve the amount. */
  quote(tradeType: TradeType, amount: bigint): Promise<PathQuote | undefined>;
}

export interface PathQuote {
  amountIn: bigint;
  amountOut: bigint;
  /** Output at the pools' current prices after their fees (an infinitely deep pool's output). */
  spotAmountOut: bigint;
  /** LP fees, in base units of tokenIn. */
  feeAmount: bigint;
  /** Gas of this path as one swap inside a SwapRouter02 multicall (V3: hops plus ticks crossed). */
  gas: bigint;
}

/** One part of a (possibly split) swap: a path and the amounts it carries. */
export interface SwapPart {
  provider: ProviderId;
  /** tokenIn … tokenOut. */
  tokens: readonly Address[];
  /** Each hop's pool (V2 pair or V3 pool). */
  pools: readonly Address[];
  /** Each hop's LP fee in pips (3000 = 0.3 %). */
  fees: readonly number[];
  amountIn: bigint;
  amountOut: bigint;
  /** LP fees of this part, in base units of tokenIn. */
  feeAmount: bigint;
}

/** A route the planner weighed for a leg and did not take (or took): what it would have given. */
export interface SwapAlternative {
  /** The parts of the route (one for a single path). */
  parts: readonly Pick<SwapPart, 'provider' | 'tokens' | 'fees'>[];
  amountIn: bigint;
  amountOut: bigint;
  gasEstimate: bigint;
}

export interface SwapQuote {
  /** The provider of the largest part. */
  provider: ProviderId;
  chainId: number;
  tokenIn: Address;
  tokenOut: Address;
  tradeType: TradeType;
  /** The contract the swap call goes to: Uniswap V2's Router02 for one V2 path, else SwapRouter02. */
  router: Address;
  /** Which router's calls execute the route. */
  via: 'UNISWAP_V2_ROUTER' | 'SWAP_ROUTER_02';
  /** The token path of the largest part (tokenIn … tokenOut). */
  path: readonly Address[];
  /** The parts, largest first; more than one when the order is split across pools. */
  parts: readonly SwapPart[];
  /** What the other routes weighed for this leg would have given (best first), for the quote's breakdown. */
  alternatives?: readonly SwapAlternative[];
  amountIn: bigint;
  amountOut: bigint;
  /** Output at the pools' spot prices after the LP fee: amountOut would be this with an infinitely deep pool. */
  spotAmountOut: bigint;
  /** LP fees, in base units of tokenIn. */
  feeAmount: bigint;
  /** Gas the swap's calls (approve + swap) take inside an intent account. */
  gasEstimate: bigint;
}

export interface SwapCallParams {
  quote: SwapQuote;
  /** EXACT_INPUT: minimum output; EXACT_OUTPUT: the exact output wanted. */
  amountOutLimit: bigint;
  /** EXACT_OUTPUT: the most the swap may spend (the quote's input plus slippage); split across parts. */
  amountInLimit?: bigint;
  /** Where the output goes; EXACT_OUTPUT swaps offer the account's whole balance of tokenIn as the maximum. */
  recipient: LegRecipient;
  /** Deliver the native currency instead of the wrapped token (the router unwraps). */
  nativeOut: boolean;
  /** Unix seconds after which the router refuses the swap. */
  deadline: bigint;
}

/** One swap protocol: the pool paths it has between two tokens, from one snapshot of pool state per plan. */
export interface SwapProvider {
  readonly id: ProviderId;
  /**
   * The paths between two ERC-20 tokens on the chain: direct, or through one other listed token. Reads the
   * pools' state the first time a pair is asked for (later calls share the reads); empty when there is none.
   */
  paths(chain: ChainConfig, tokenIn: Address, tokenOut: Address): Promise<SwapPath[]>;
}

/**
 * What the plan builder swaps with: every provider's paths behind one door, the best route for an amount
 * (src/intents/plan/choose-swap-route.ts), and the calls that execute it.
 */
export interface SwapRouter {
  /** Whether any provider has a path; starts reading the pools the later quote needs. */
  canSwap(chain: ChainConfig, tokenIn: Address, tokenOut: Address): Promise<boolean>;
  /** The best route for the amount; throws InsufficientLiquidityError when no route can serve it. */
  quote(request: SwapQuoteRequest): Promise<SwapQuote>;
  /** approve + the swap calls of the quote's route (Router02 for one V2 path, else SwapRouter02). */
  buildCalls(params: SwapCallParams): IntentCall[];
}

export interface BridgeQuoteRequest {
  originChain: ChainConfig;
  destinationChain: ChainConfig;
  inputToken: Address;
  outputToken: Address;
  tradeType: TradeType;
  /** EXACT_INPUT: what is locked on the origin; EXACT_OUTPUT: what must arrive on the destination. */
  amount: bigint;
}

export interface BridgeQuote {
  provider: ProviderId;
  inputToken: Address;
  outputToken: Address;
  /** Locked on the origin chain and paid to the solver at settlement. */
  inputAmount: bigint;
  /** Delivered to the destination account by the solver. */
  outputAmount: bigint;
  /** The solver's spread, inputAmount − outputAmount, in base units of inputToken. */
  feeAmount: bigint;
  /** Origin-chain gas of the lock calls (approve + open) plus the settle transaction. */
  originGasEstimate: bigint;
  /** Destination-chain gas of the fill transaction. */
  destinationGasEstimate: bigint;
}

export interface BridgeProvider {
  readonly id: ProviderId;
  supports(originChain: ChainConfig, destinationChain: ChainConfig): boolean;
  /** Checks the solver's inventory net of open orders; throws InsufficientInventoryError when it cannot fill. */
  quote(request: BridgeQuoteRequest): Promise<BridgeQuote>;
  /**
   * Starts the reads a quote of this token pair will need that do not depend on the amount, so they run
   * beside the plan's other reads (the amount waits for the gas price); quote() then finds them in flight.
   */
  prefetch?(destinationChain: ChainConfig, outputToken: Address): void;
}

/** Wrapping and unwrapping the native currency. */
export interface WrapProvider {
  readonly id: ProviderId;
  wrappedToken(chain: ChainConfig): Address | undefined;
  /** `deposit()` with a fixed value (the committed amount is known: strict deposits). */
  wrapCall(chain: ChainConfig, amount: bigint): IntentCall;
  /** `withdraw(own balance)`: unwraps whatever the account holds. */
  unwrapCall(chain: ChainConfig): IntentCall;
  readonly wrapGas: bigint;
  readonly unwrapGas: bigint;
}

export type { Hex };
