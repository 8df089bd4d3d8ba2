/**
 * The quote document: the intent as QuoteIntent answers it, as the store keeps it (`intents.intent`) and as
 * CommitIntent compares it. Plain data, amounts as bigint; its member names are the official client's
 * (`trailsVersion`, `trailsFee`), which the API renames for the seed's dialect on the way out. The API's
 * schemas (src/api/schemas/intent.ts) describe the same shape for the wire: the API's adapters pass these
 * values through typed as the schemas, so a member that differs fails to compile there.
 */
import type { TradeType } from '../providers/types.ts';
import type { IntentStatus } from '../store/types.ts';

/**
 * Every route provider name a request may ask for or a quote may list (the seed's, the client's, ours). The
 * providers this server implements (`ProviderId`) must be among them: build-wire-intent.ts lists the plan's.
 */
export const ROUTE_PROVIDER_NAMES = [
  'AUTO',
  'CCTP',
  'GASZIP',
  'HYPERLANE',
  'LIFI',
  'LZ_OFT',
  'LZ_TRANSFER',
  'OIF',
  'RELAY',
  'SOMNIA_EXCHANGE',
  'SOMNIA_SWAP',
  'SUSHI',
  'WETH',
  'ZEROX',
  'UNISWAP_V2',
  'UNISWAP_V3',
  'SWITCHYARD',
] as const;
export type RouteProviderName = (typeof ROUTE_PROVIDER_NAMES)[number];

/** What the caller is doing (the reference's IntentMode); EARN and WITHDRAW build vault calls (docs/intents.md). */
export const INTENT_MODES = ['SWAP', 'FUND', 'EARN', 'PAY', 'WITHDRAW'] as const;
export type IntentMode = (typeof INTENT_MODES)[number];

/** How the deposit is funded; the on-ramps (ONRAMP_*) are not offered here and are refused. */
export const FUND_METHODS = [
  'WALLET',
  'DIRECT_TRANSFER',
  'ONRAMP_MESH',
  'ONRAMP_MELD',
  'ONRAMP_BLUVO',
  'ONRAMP_STRIPE',
] as const;
export type FundMethod = (typeof FUND_METHODS)[number];

/** What the planner optimises among the routes it finds (src/intents/plan/choose-route.ts). */
export const ROUTE_PREFERENCES = ['RECOMMENDED', 'FASTEST', 'CHEAPEST', 'TRUSTLESS'] as const;
export type RoutePreference = (typeof ROUTE_PREFERENCES)[number];

/** Intent protocol versions of the reference; Switchyard runs one, `v1`. */
export const INTENT_PROTOCOL_VERSIONS = ['v1', 'v1_5'] as const;
export type IntentProtocolVersion = (typeof INTENT_PROTOCOL_VERSIONS)[number];

export interface AddressOverrides {
  sequenceWalletFactoryAddress?: string;
  sequenceWalletMainModuleAddress?: string;
  sequenceWalletMainModuleUpgradableAddress?: string;
  sequenceWalletGuestModuleAddress?: string;
  sequenceWalletUtilsAddress?: string;
}

export interface QuoteOptions {
  swapProvider?: RouteProviderName;
  bridgeProvider?: RouteProviderName;
  swapProviderFallback?: boolean;
  bridgeProviderFallback?: boolean;
  /** A fraction (0.05 = 5 %). */
  slippageTolerance?: number;
  preference?: RoutePreference;
  intentProtocol?: IntentProtocolVersion;
  trailsAddressOverrides?: AddressOverrides;
}

/** What the caller asks to be quoted; echoed in the quote as `quoteRequest`. */
export interface QuoteRequest {
  ownerAddress: string;
  originChainId: number;
  originTokenAddress: string;
  destinationChainId: number;
  destinationTokenAddress: string;
  destinationToAddress?: string;
  destinationApproveAddress?: string;
  destinationCallData?: string;
  destinationCallValue?: bigint;
  originTokenAmount?: bigint;
  destinationTokenAmount?: bigint;
  tradeType?: TradeType;
  fundMethod?: FundMethod;
  mode?: IntentMode;
  /** EARN / WITHDRAW: the market whose vault the intent enters or leaves (Switchyard's member). */
  earnMarketId?: string;
  onlyNativeGasFee?: boolean;
  options?: QuoteOptions;
}

export interface DepositTransaction {
  toAddress: string;
  tokenAddress: string;
  decimals?: number;
  amount: bigint;
  chainId?: number;
  to?: string;
  data?: string;
  value?: bigint;
}

export interface TransactionCall {
  to: string;
  value?: bigint;
  data?: string;
  gasLimit?: bigint;
  delegateCall?: boolean;
  onlyFallback?: boolean;
  /** 0 ignore, 1 revert, 2 abort. */
  behaviorOnError?: number;
}

export interface IntentCalls {
  chainId: number;
  space?: bigint;
  nonce?: bigint;
  calls: TransactionCall[];
}

export interface TransactionPrecondition {
  type: string;
  chainId: number;
  ownerAddress: string;
  tokenAddress: string;
  minAmount: bigint;
}

export interface MetaTxn {
  id: string;
  chainId: number;
  walletAddress: string;
  contract: string;
  input: string;
  bridgeGas?: bigint;
}

export interface PriceImpact {
  priceImpact: number;
  priceImpactUsd: number;
}

export interface PriceImpactDetails {
  executionPriceImpact: PriceImpact;
  marketPriceImpact: PriceImpact;
  providerFeesPriceImpact: PriceImpact;
  trailsFeesPriceImpact: PriceImpact;
  netPriceImpact: PriceImpact;
}

export interface IntentProviderQuote {
  routeProviders: RouteProviderName[];
  routeProvidersRequestIds: string[];
  routeProvidersFeeUsd: number[];
  fromAmount: bigint;
  fromAmountMin: bigint;
  fromAmountUsd: number;
  fromAmountMinUsd: number;
  toAmount: bigint;
  toAmountMin: bigint;
  toAmountUsd: number;
  toAmountMinUsd: number;
  maxSlippage: number;
  priceImpact: number;
  priceImpactUsd: number;
  priceImpactDetails: PriceImpactDetails;
  estimatedDuration?: number;
  /** Each swap leg's chosen route, its split and the routes weighed against it (docs/api.md). */
  swapRoutes?: IntentSwapRoute[];
}

/** One part of a swap leg's route: its hops, pools and fee tiers, amounts and the limit its call enforces. */
export interface IntentSwapRoutePart {
  provider: RouteProviderName;
  tokens: string[];
  pools: string[];
  fees: number[];
  amountIn: bigint;
  amountOut: bigint;
  limit: bigint;
}

/** A route weighed for a leg and not taken. */
export interface IntentSwapRouteAlternative {
  parts: Pick<IntentSwapRoutePart, 'provider' | 'tokens' | 'fees'>[];
  amountIn: bigint;
  amountOut: bigint;
  gasEstimate: bigint;
}

export interface IntentSwapRoute {
  leg: 'origin' | 'destination';
  chainId: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  gasEstimate: bigint;
  parts: IntentSwapRoutePart[];
  alternatives: IntentSwapRouteAlternative[];
}

export interface MetaTxnFeeDetails {
  metaTxnId: string;
  estimatedGasLimit: bigint;
  feeNative: bigint;
}

export interface IntentTransactionGasFee {
  chainId: number;
  totalGasLimit: bigint;
  gasPrice: bigint;
  nativeTokenSymbol: string;
  nativeTokenPriceUsd?: number;
  chainGasUsageStatus: 'NORMAL' | 'BUSY' | 'VERY_BUSY';
  totalFeeAmount: bigint;
  /** USD as a numeric string (the official client types it so). */
  totalFeeUsd: string;
  metaTxnFeeDetails: MetaTxnFeeDetails;
  metaTxnGasQuote: string;
}

export interface IntentProviderFees {
  quoteProvider: string;
  quoteProviderFee: bigint;
  quoteProviderFeeUsd: number;
  trailsFee: bigint;
  trailsFeeUsd: number;
  quoteProviderWithTrailsFee: bigint;
  providerWithTrailsFeeUsd: number;
  totalFeeAmount: bigint;
  totalFeeUsd: number;
}

export interface IntentFees {
  originGas: IntentTransactionGasFee;
  destinationGas?: IntentTransactionGasFee;
  provider: IntentProviderFees;
  feeTokenAddress: string;
  feeTokenAmount: bigint;
  feeTokenUsd: number;
  feeTokenTotal: bigint;
  gasFeeTotal: bigint;
  gasFeeUsd: number;
  trailsFeeTotal: bigint;
  trailsFeeUsd: number;
  collectorFeeTotal: bigint;
  collectorFeeUsd: number;
  providerFeeTotal: bigint;
  providerFeeUsd: number;
  totalFeeAmount: bigint;
  totalFeeUsd: number;
}

export interface ServiceContracts {
  trailsIntentEntrypointAddress: string;
  trailsRouterAddress: string;
  trailsRouterShimAddress: string;
}

export interface IntentDocument {
  id?: number;
  projectId?: number;
  intentId: string;
  status: IntentStatus;
  quoteRequest: QuoteRequest;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  originIntentAddress: string;
  destinationIntentAddress?: string;
  salt: bigint;
  depositTransaction: DepositTransaction;
  originCalls: IntentCalls;
  destinationCalls?: IntentCalls;
  originPrecondition: TransactionPrecondition;
  destinationPrecondition?: TransactionPrecondition;
  originMetaTxn: MetaTxn;
  destinationMetaTxn?: MetaTxn;
  quote: IntentProviderQuote;
  fees: IntentFees;
  trailsVersion: string;
  trailsContracts: ServiceContracts;
  /** RFC 3339 UTC. */
  expiresAt: string;
  passthrough?: boolean;
  /** The one protocol this server runs. */
  intentProtocol?: IntentProtocolVersion;
  /** Unix seconds from which anyone may return an unexecuted deposit to the owner: the origin deadline. */
  timedRefundUnlockTimestamp?: number;
  /** The origin chain's `isTestnet`. */
  isTestnet?: boolean;
  updatedAt?: string;
  createdAt?: string;
}

export interface FeeOption {
  tokenAddress: string;
  tokenSymbol: string;
  tokenDecimals: number;
  amount: bigint;
  amountUsd: number;
  feeCollectorAddress: string;
  is2612: boolean;
}

export interface GasFeeOptions {
  gasEstimate: { totalGas: number; gasPrice: string; nativeCost: string; nativeCostUsd: number };
  feeOptions: FeeOption[];
  /** RFC 3339 UTC. */
  expiresAt: string;
  feeCollectorAddress: string;
}

/** QuoteIntent's answer. */
export interface Quote {
  intent: IntentDocument;
  gasFeeOptions: GasFeeOptions;
}
