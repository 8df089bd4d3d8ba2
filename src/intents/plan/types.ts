/** The normalised quote request the plan builder takes, its dependencies, and the plan it produces. */
import type { Address, Hex, PublicClient } from 'viem';
import type { ChainFees } from '../../chains/chain-fees.ts';
import type { Intent, OrderData } from '../../contracts/types.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { PoolDirectory } from '../../providers/pool-directory.ts';
import type { InventorySource } from '../../providers/switchyard-bridge.ts';
import type {
  ProviderChoice,
  ProviderId,
  SwapAlternative,
  SwapPart,
  TradeType,
} from '../../providers/types.ts';
import type { IntentMode, RoutePreference } from '../intent-document.ts';

export interface PlanRequest {
  ownerAddress: Address;
  originChainId: number;
  originTokenAddress: Address;
  destinationChainId: number;
  destinationTokenAddress: Address;
  /** EXACT_INPUT: the amount spent; EXACT_OUTPUT: the most the caller will deposit (optional cap). */
  originTokenAmount?: bigint | undefined;
  /** EXACT_OUTPUT: the amount that must arrive. */
  destinationTokenAmount?: bigint | undefined;
  /** Inferred when absent: a non-zero destinationTokenAmount means EXACT_OUTPUT. */
  tradeType?: TradeType | undefined;
  /** The recipient, or the call target when destinationCallData is given. Default: the owner. */
  destinationToAddress?: Address | undefined;
  destinationCallData?: Hex | undefined;
  destinationCallValue?: bigint | undefined;
  /** Approved for the delivered amount before the destination call. */
  destinationApproveAddress?: Address | undefined;
  onlyNativeGasFee?: boolean | undefined;
  /** Fraction (0.005 = 0.5 %); default DEFAULT_SLIPPAGE_TOLERANCE. */
  slippageTolerance?: number | undefined;
  swapProvider?: ProviderChoice | string | undefined;
  bridgeProvider?: ProviderChoice | string | undefined;
  /** The project's service fee in basis points (0 when absent). */
  serviceFeeBps?: bigint | undefined;
  /** What the planner optimises among the routes it finds; default RECOMMENDED (choose-route.ts). */
  preference?: RoutePreference | undefined;
  /** EARN and WITHDRAW name a market (vault-mode.ts turns them into the fields above and `vaultExit`). */
  mode?: IntentMode | undefined;
  earnMarketId?: string | undefined;
  /** WITHDRAW: the origin deposit is vault shares, redeemed into the origin token before the route. */
  vaultExit?: VaultExit | undefined;
}

/** A WITHDRAW intent's first origin call: redeem the deposited shares of `vault` into the origin token. */
export interface VaultExit {
  vault: Address;
  shareDecimals: number;
  /** EXACT_INPUT: the shares deposited; EXACT_OUTPUT: undefined, the plan sizes them (previewWithdraw). */
  shares?: bigint | undefined;
}

export type GetPriceUsd = (
  chainId: number,
  token: Address,
) => number | undefined | Promise<number | undefined>;

export interface PlanDeps {
  chains: readonly ChainConfig[];
  getClient(chainId: number): PublicClient;
  /** USD price of a token (zero address = native); undefined when the source has none. */
  getPriceUsd: GetPriceUsd;
  operator: {
    /** Pinned as the origin executor. */
    relayer: Address;
    /** Fills orders from its inventory on the destination chain. */
    solver: Address;
    /** Receives the gas and service fees. */
    feeCollector: Address;
  };
  /** The OriginSettler's grace after the fill deadline; default DEFAULT_SETTLEMENT_GRACE_SECONDS. */
  settlementGraceSeconds?: bigint;
  /** Unix seconds "now" (the origin chain's clock in tests); default: the wall clock. */
  nowSeconds?: () => bigint;
  /** Random 32 bytes per quote; injectable for tests. */
  randomSalt?: () => Hex;
  /** Solver spread in bps; default SOLVER_SPREAD_BPS. */
  solverSpreadBps?: bigint;
  /** The solver's inventory net of open orders' holds; default: its balance alone. */
  solverInventory?: InventorySource;
  /** A chain's current fees (a short cache shared by quotes); default: read fresh from its latest block. */
  chainFees?: (chainId: number) => Promise<ChainFees>;
  /** Where pools are, learnt across quotes (providers/pool-directory.ts); each plan learns alone without it. */
  poolDirectory?: PoolDirectory;
}

export interface ChainGas {
  chainId: number;
  /** Gas units of every operator transaction on this chain for the route. */
  gasLimit: bigint;
  /** Current gas price: base fee + priority fee, or the legacy gas price (wei). */
  gasPrice: bigint;
  /** gasLimit × (base fee × BASE_FEE_QUOTE_MARGIN + priority fee), at most gasLimit × the chain's cap (wei). */
  feeNative: bigint;
  /** The same, in the fee token's base units. */
  feeAmount: bigint;
  feeUsd: number;
  nativePriceUsd: number;
}

export interface PlanFees {
  /** The origin token: every fee is expressed in it. */
  feeToken: Address;
  originGas: ChainGas;
  destinationGas?: ChainGas | undefined;
  gasFee: bigint;
  gasFeeUsd: number;
  /** Swap LP fees plus the solver spread, converted to the fee token (not paid to the collector). */
  providerFee: bigint;
  providerFeeUsd: number;
  /** Per provider leg, in the order of routeProviders. */
  providerFeesUsd: number[];
  serviceFee: bigint;
  serviceFeeUsd: number;
  /** gasFee + serviceFee: the committed transfer to the fee collector. */
  collectorFee: bigint;
  collectorFeeUsd: number;
  /** gasFee + providerFee + serviceFee. */
  totalFeeAmount: bigint;
  totalFeeUsd: number;
}

export interface PriceImpactPart {
  /** Percentage of fromAmountUsd; negative = the user loses value. */
  priceImpact: number;
  priceImpactUsd: number;
}

export interface PriceImpactBreakdown {
  execution: PriceImpactPart;
  market: PriceImpactPart;
  providerFees: PriceImpactPart;
  serviceFees: PriceImpactPart;
  /** execution + market + providerFees + serviceFees. */
  net: PriceImpactPart;
}

export interface FeeOption {
  tokenAddress: Address;
  tokenSymbol: string;
  tokenDecimals: number;
  amount: bigint;
  amountUsd: number;
  feeCollectorAddress: Address;
}

export interface GasFeeOptions {
  gasEstimate: { totalGas: bigint; gasPrice: bigint; nativeCost: bigint; nativeCostUsd: number };
  feeOptions: FeeOption[];
  feeCollectorAddress: Address;
  expiresAt: bigint;
}

/** One part of a swap leg's route as the quote shows it. */
export interface SwapRoutePart
  extends Pick<SwapPart, 'provider' | 'tokens' | 'pools' | 'fees' | 'amountIn' | 'amountOut'> {
  /** What the part's swap call enforces: its least output (EXACT_INPUT) or its most input (EXACT_OUTPUT). */
  limit: bigint;
}

/** A swap leg's chosen route, its split and what the routes weighed against it would have given. */
export interface SwapRouteSummary {
  leg: 'origin' | 'destination';
  chainId: number;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  amountOut: bigint;
  gasEstimate: bigint;
  /** Largest first; more than one when the leg is split. */
  parts: SwapRoutePart[];
  alternatives: readonly SwapAlternative[];
}

export interface PlannedIntent {
  intent: Intent;
  hash: Hex;
  address: Address;
  /**
   * `deployIfNeededAndExecute(intent, 0x)` calldata, encoded once with the hash and reused by the wire
   * intent's meta-transaction. Not stored: plan-codec leaves it out (the engine encodes its own authData).
   */
  executeCalldata?: Hex;
}

export interface ExecutionPlan {
  tradeType: TradeType;
  /** WITHDRAW: the shares the owner deposits (the origin intent's deposit) and the vault they redeem from. */
  vaultExit?: { vault: Address; shares: bigint; shareDecimals: number } | undefined;
  kind: 'same-chain' | 'cross-chain';
  slippageTolerance: number;
  origin: PlannedIntent;
  destination?: PlannedIntent | undefined;
  /** The order as committed in `open`; depositor (the origin account) and inputAmount as they will be. */
  order?: OrderData | undefined;
  amounts: {
    /** The committed deposit (strict: the origin needs at least this; surplus returns at once). */
    depositAmount: bigint;
    fromAmount: bigint;
    fromAmountMin: bigint;
    toAmount: bigint;
    toAmountMin: bigint;
    fromAmountUsd: number;
    fromAmountMinUsd: number;
    toAmountUsd: number;
    toAmountMinUsd: number;
  };
  fees: PlanFees;
  priceImpact: PriceImpactBreakdown;
  routeProviders: ProviderId[];
  /** Per swap leg (origin first): the route taken, its split and the alternatives (docs/api.md). */
  swapRoutes?: SwapRouteSummary[] | undefined;
  gasFeeOptions: GasFeeOptions;
  /** Unix seconds. */
  deadlines: {
    quoteExpiresAt: bigint;
    originDeadline: bigint;
    fillDeadline?: bigint | undefined;
    destinationDeadline?: bigint | undefined;
    /** Refunds of an unsettled order open after this. */
    settlementRefundAt?: bigint | undefined;
  };
  estimatedDuration: number;
}
