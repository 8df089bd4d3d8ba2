/**
 * Intent and its parts (client 0.9.4 names; seed-only members optional). The same schemas validate
 * what CommitIntent receives and shape what QuoteIntent/GetIntent/SearchIntents send.
 */
import { type Static, type StaticDecode, Type } from '@sinclair/typebox';
import {
  ChainGasUsageStatus,
  FundMethod,
  IntentMode,
  IntentProtocolVersion,
  IntentStatus,
  RoutePreference,
  RouteProvider,
  TradeType,
} from './enums.ts';
import {
  Address,
  Amount,
  Bool,
  ChainId,
  HexData,
  IntentId,
  NonNegativeInt,
  Opt,
  Str,
  StringEnum,
  Timestamp,
  TxHash,
  Usd,
} from './wire.ts';

export const AddressOverrides = Type.Object(
  {
    sequenceWalletFactoryAddress: Opt(Address),
    sequenceWalletMainModuleAddress: Opt(Address),
    sequenceWalletMainModuleUpgradableAddress: Opt(Address),
    sequenceWalletGuestModuleAddress: Opt(Address),
    sequenceWalletUtilsAddress: Opt(Address),
  },
  { title: 'TrailsAddressOverrides' },
);

export const QuoteOptions = Type.Object(
  {
    swapProvider: Opt(RouteProvider),
    bridgeProvider: Opt(RouteProvider),
    swapProviderFallback: Opt(Bool),
    bridgeProviderFallback: Opt(Bool),
    slippageTolerance: Opt(
      Type.Number({ minimum: 0, maximum: 1, 'x-error': 'must be a fraction between 0 and 1 (0.05 = 5%)' }),
    ),
    preference: Opt(RoutePreference),
    intentProtocol: Opt(IntentProtocolVersion),
    trailsAddressOverrides: Opt(AddressOverrides),
  },
  { title: 'QuoteIntentRequestOptions' },
);

export const QuoteIntentRequest = Type.Object(
  {
    ownerAddress: Address,
    originChainId: ChainId,
    originTokenAddress: Address,
    destinationChainId: ChainId,
    destinationTokenAddress: Address,
    destinationToAddress: Opt(Address),
    destinationApproveAddress: Opt(Address),
    destinationCallData: Opt(HexData),
    destinationCallValue: Opt(Amount),
    originTokenAmount: Opt(Amount),
    destinationTokenAmount: Opt(Amount),
    tradeType: Opt(TradeType),
    fundMethod: Opt(FundMethod),
    mode: Opt(IntentMode),
    earnMarketId: Opt(Str({ maxLength: 200 })),
    onlyNativeGasFee: Opt(Bool),
    options: Opt(QuoteOptions),
  },
  { title: 'QuoteIntentRequest' },
);
export type QuoteIntentRequest = StaticDecode<typeof QuoteIntentRequest>;

export const DepositTransaction = Type.Object(
  {
    toAddress: Address,
    tokenAddress: Address,
    decimals: Opt(NonNegativeInt),
    amount: Amount,
    chainId: Opt(ChainId),
    to: Opt(Address),
    data: Opt(HexData),
    value: Opt(Amount),
  },
  { title: 'DepositTransaction' },
);

export const TransactionCall = Type.Object(
  {
    to: Address,
    value: Opt(Amount),
    data: Opt(HexData),
    gasLimit: Opt(Amount),
    delegateCall: Opt(Bool),
    onlyFallback: Opt(Bool),
    behaviorOnError: Opt(
      Type.Integer({ minimum: 0, maximum: 2, 'x-error': 'must be 0 (ignore), 1 (revert) or 2 (abort)' }),
    ),
  },
  { title: 'TransactionCall' },
);

export const IntentCalls = Type.Object(
  { chainId: ChainId, space: Opt(Amount), nonce: Opt(Amount), calls: Type.Array(TransactionCall) },
  { title: 'IntentCalls' },
);

export const TransactionPrecondition = Type.Object(
  { type: Str(), chainId: ChainId, ownerAddress: Address, tokenAddress: Address, minAmount: Amount },
  { title: 'TransactionPrecondition' },
);

export const MetaTxn = Type.Object(
  {
    id: Str(),
    chainId: ChainId,
    walletAddress: Address,
    contract: Str(),
    input: Str(),
    bridgeGas: Opt(Amount),
  },
  { title: 'MetaTxn' },
);

const PriceImpact = Type.Object({ priceImpact: Usd, priceImpactUsd: Usd }, { title: 'PriceImpact' });

export const PriceImpactDetails = Type.Object(
  {
    executionPriceImpact: PriceImpact,
    marketPriceImpact: PriceImpact,
    providerFeesPriceImpact: PriceImpact,
    trailsFeesPriceImpact: PriceImpact,
    netPriceImpact: PriceImpact,
  },
  { title: 'PriceImpactDetails' },
);

const SwapRouteHops = {
  provider: RouteProvider,
  tokens: Type.Array(Address, { description: 'tokenIn … tokenOut' }),
  fees: Type.Array(NonNegativeInt, { description: "each hop's LP fee in pips (3000 = 0.3 %)" }),
};

export const SwapRoutePart = Type.Object(
  {
    ...SwapRouteHops,
    pools: Type.Array(Address, { description: "each hop's pool (V2 pair or V3 pool)" }),
    amountIn: Amount,
    amountOut: Amount,
    limit: Amount,
  },
  {
    title: 'SwapRoutePart',
    description:
      "one part of a swap leg's route; limit: the part's least output (EXACT_INPUT) or most input (EXACT_OUTPUT)",
  },
);

export const SwapRouteAlternative = Type.Object(
  {
    parts: Type.Array(Type.Object(SwapRouteHops, { title: 'SwapRouteAlternativePart' })),
    amountIn: Amount,
    amountOut: Amount,
    gasEstimate: Amount,
  },
  { title: 'SwapRouteAlternative', description: 'a route weighed for the leg and not taken' },
);

export const SwapRoute = Type.Object(
  {
    leg: StringEnum(['origin', 'destination'] as const, 'swap leg'),
    chainId: ChainId,
    tokenIn: Address,
    tokenOut: Address,
    amountIn: Amount,
    amountOut: Amount,
    gasEstimate: Amount,
    parts: Type.Array(SwapRoutePart),
    alternatives: Type.Array(SwapRouteAlternative),
  },
  {
    title: 'SwapRoute',
    description: "a swap leg's chosen route, its split and the alternatives (docs/api.md)",
  },
);

export const IntentProviderQuote = Type.Object(
  {
    routeProviders: Type.Array(RouteProvider),
    routeProvidersRequestIds: Type.Array(Str()),
    routeProvidersFeeUsd: Type.Array(Usd),
    fromAmount: Amount,
    fromAmountMin: Amount,
    fromAmountUsd: Usd,
    fromAmountMinUsd: Usd,
    toAmount: Amount,
    toAmountMin: Amount,
    toAmountUsd: Usd,
    toAmountMinUsd: Usd,
    maxSlippage: Usd,
    priceImpact: Usd,
    priceImpactUsd: Usd,
    priceImpactDetails: PriceImpactDetails,
    estimatedDuration: Opt(Type.Number()),
    swapRoutes: Opt(Type.Array(SwapRoute)),
  },
  { title: 'IntentProviderQuote' },
);

export const MetaTxnFeeDetails = Type.Object(
  { metaTxnId: Str(), estimatedGasLimit: Amount, feeNative: Amount },
  { title: 'MetaTxnFeeDetails' },
);

export const IntentTransactionGasFee = Type.Object(
  {
    chainId: ChainId,
    totalGasLimit: Amount,
    gasPrice: Amount,
    nativeTokenSymbol: Str(),
    nativeTokenPriceUsd: Opt(Usd),
    chainGasUsageStatus: ChainGasUsageStatus,
    totalFeeAmount: Amount,
    totalFeeUsd: Str({ description: 'USD value as a numeric string (client 0.9.4 types it string)' }),
    metaTxnFeeDetails: MetaTxnFeeDetails,
    metaTxnGasQuote: Str(),
  },
  { title: 'IntentTransactionGasFee' },
);

export const IntentProviderFees = Type.Object(
  {
    quoteProvider: Str(),
    quoteProviderFee: Amount,
    quoteProviderFeeUsd: Usd,
    trailsFee: Amount,
    trailsFeeUsd: Usd,
    quoteProviderWithTrailsFee: Amount,
    providerWithTrailsFeeUsd: Usd,
    totalFeeAmount: Amount,
    totalFeeUsd: Usd,
  },
  { title: 'IntentProviderFees' },
);

export const IntentFees = Type.Object(
  {
    originGas: IntentTransactionGasFee,
    destinationGas: Opt(IntentTransactionGasFee),
    provider: IntentProviderFees,
    feeTokenAddress: Address,
    feeTokenAmount: Amount,
    feeTokenUsd: Usd,
    feeTokenTotal: Amount,
    gasFeeTotal: Amount,
    gasFeeUsd: Usd,
    trailsFeeTotal: Amount,
    trailsFeeUsd: Usd,
    collectorFeeTotal: Amount,
    collectorFeeUsd: Usd,
    providerFeeTotal: Amount,
    providerFeeUsd: Usd,
    totalFeeAmount: Amount,
    totalFeeUsd: Usd,
  },
  { title: 'IntentFees' },
);

export const TrailsContracts = Type.Object(
  { trailsIntentEntrypointAddress: Address, trailsRouterAddress: Address, trailsRouterShimAddress: Address },
  { title: 'TrailsContracts' },
);

export const Intent = Type.Object(
  {
    id: Opt(NonNegativeInt),
    projectId: Opt(NonNegativeInt),
    intentId: IntentId,
    status: IntentStatus,
    quoteRequest: QuoteIntentRequest,
    ownerAddress: Address,
    originChainId: ChainId,
    destinationChainId: ChainId,
    originIntentAddress: Address,
    destinationIntentAddress: Opt(Address),
    salt: Amount,
    depositTransaction: DepositTransaction,
    originCalls: IntentCalls,
    destinationCalls: Opt(IntentCalls),
    originPrecondition: TransactionPrecondition,
    destinationPrecondition: Opt(TransactionPrecondition),
    originMetaTxn: MetaTxn,
    destinationMetaTxn: Opt(MetaTxn),
    quote: IntentProviderQuote,
    fees: IntentFees,
    trailsVersion: Str(),
    trailsContracts: TrailsContracts,
    expiresAt: Timestamp,
    passthrough: Opt(Bool),
    intentProtocol: Opt(IntentProtocolVersion),
    timedRefundUnlockTimestamp: Opt(NonNegativeInt),
    isTestnet: Opt(Bool),
    updatedAt: Opt(Timestamp),
    createdAt: Opt(Timestamp),
  },
  { title: 'Intent' },
);
export type Intent = StaticDecode<typeof Intent>;
export type IntentWire = Static<typeof Intent>;

export const FeeOption = Type.Object(
  {
    tokenAddress: Address,
    tokenSymbol: Str(),
    tokenDecimals: NonNegativeInt,
    amount: Amount,
    amountUsd: Usd,
    feeCollectorAddress: Address,
    is2612: Bool,
  },
  { title: 'FeeOption' },
);

export const GasEstimate = Type.Object(
  { totalGas: Type.Number(), gasPrice: Str(), nativeCost: Str(), nativeCostUsd: Usd },
  { title: 'GasEstimate' },
);

export const GasFeeOptions = Type.Object(
  {
    gasEstimate: GasEstimate,
    feeOptions: Type.Array(FeeOption),
    expiresAt: Timestamp,
    feeCollectorAddress: Address,
  },
  { title: 'GasFeeOptions' },
);

/** One transaction of the intent as planned (QuoteIntent's `transactionStates`): deposit, origin, destination. */
export const TransactionStateInfo = Type.Object(
  { id: Str(), label: Str(), chainId: ChainId, transactionHash: Opt(TxHash) },
  { title: 'TransactionStateInfo' },
);

/** Whether the client may skip the intent and transfer directly: never here (every route runs an intent). */
export const PassthroughInfo = Type.Object({ eligible: Bool }, { title: 'PassthroughInfo' });

export const DepositSignature = Type.Object(
  {
    intentSignature: HexData,
    permitSignature: Opt(HexData),
    permitDeadline: Opt(NonNegativeInt),
    permitAmount: Opt(Amount),
    selectedGasFeeOption: FeeOption,
    userNonce: NonNegativeInt,
    deadline: NonNegativeInt,
  },
  { title: 'DepositSignature' },
);
