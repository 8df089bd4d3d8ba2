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
export const ProviderId = { UniswapV2: 'UNISWAP_V2', Weth: 'WETH', Switchyard: 'SWITCHYARD' } as const;
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
}

export interface SwapQuote {
  provider: ProviderId;
  chainId: number;
  tokenIn: Address;
  tokenOut: Address;
  tradeType: TradeType;
  /** The contract the swap call goes to (the router). */
  router: Address;
  /** The token path through pools (tokenIn … tokenOut). */
  path: readonly Address[];
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
  /** Where the output goes; EXACT_OUTPUT swaps offer the account's whole balance of tokenIn as the maximum. */
  recipient: LegRecipient;
  /** Deliver the native currency instead of the wrapped token (the router unwraps). */
  nativeOut: boolean;
  /** Unix seconds after which the router refuses the swap. */
  deadline: bigint;
}

export interface SwapProvider {
  readonly id: ProviderId;
  /**
   * Gas of the swap's calls if this provider can exchange the two tokens on the chain, else undefined.
   * Needs no amount, so fees can be priced before the amounts are known.
   */
  estimateGas(chain: ChainConfig, tokenIn: Address, tokenOut: Address): Promise<bigint | undefined>;
  /** Quotes from current on-chain state; throws InsufficientLiquidityError when the pools cannot serve it. */
  quote(request: SwapQuoteRequest): Promise<SwapQuote>;
  /**
   * Starts the reads a quote of this pair will need that do not depend on the amount (pool state), so they
   * run beside the plan's other reads; quote() then finds them in flight.
   */
  prefetch?(chain: ChainConfig, tokenIn: Address, tokenOut: Address): void;
  /** approve + swap, spending the account's whole balance of tokenIn (an OwnBalance fill). */
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
