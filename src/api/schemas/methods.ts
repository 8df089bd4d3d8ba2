/**
 * Every RPC method: its request and response schema (client 0.9.4 names) and whether it needs an
 * access key. The server, the OpenAPI document and the handler types all derive from this table.
 */
import { type StaticDecode, type TSchema, Type } from '@sinclair/typebox';
import { ChainInfo, RuntimeStatus, Token, TokenInfo, TokenPrice } from './catalogue.ts';
import {
  EdgeMode,
  EdgeRail,
  IntentProtocolVersion,
  IntentStatus,
  RouteProvider,
  TransactionStatus,
} from './enums.ts';
import {
  DepositSignature,
  GasFeeOptions,
  Intent,
  PassthroughInfo,
  QuoteIntentRequest,
  TrailsContracts,
  TransactionStateInfo,
} from './intent.ts';
import { IntentHistory, IntentReceipt, IntentSummary, Page, TokenBalance } from './receipt.ts';
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
} from './wire.ts';
import {
  AggregateBalancesRequest,
  AggregateBalancesResponse,
  EarnPoolsRequest,
  EarnPoolsResponse,
  YieldActionRequest,
  YieldActionResponse,
  YieldNetwork,
  YieldPageRequest,
  YieldProvider,
} from './yield.ts';

const Empty = Type.Object({});

/** The owner's signed recovery, as BuildIntentRecoveryTransaction and RelayIntentRecovery take it back. */
const SignedRecoveryRequest = Type.Object({
  intentId: IntentId,
  payload: Type.Unknown({ description: 'the payload PrepareIntentRecovery answered, unchanged' }),
  signature: HexData,
  intentAddress: Address,
  refundToAddress: Opt(Address),
});

const HistoryFilters = {
  page: Opt(Page),
  byProjectId: Opt(NonNegativeInt),
  byOwnerAddress: Opt(Address),
};

/** The reference's filters on Solana/Tron edges: no intent here has one, so any of them matches nothing. */
const EdgeFilters = {
  byEdgeAddress: Opt(Str({ maxLength: 200 })),
  byEdgeRail: Opt(EdgeRail),
  byEdgeMode: Opt(EdgeMode),
};

export const METHODS = {
  Ping: { auth: false, request: Empty, response: Type.Object({ version: Str() }) },
  Clock: { auth: false, request: Empty, response: Type.Object({ serverTime: Timestamp }) },
  RuntimeStatus: { auth: false, request: Empty, response: Type.Object({ status: RuntimeStatus }) },

  QuoteIntent: {
    auth: true,
    request: QuoteIntentRequest,
    response: Type.Object({
      intent: Intent,
      gasFeeOptions: GasFeeOptions,
      transactionStates: Opt(Type.Array(TransactionStateInfo)),
      passthrough: Opt(PassthroughInfo),
    }),
  },
  CommitIntent: {
    auth: true,
    request: Type.Object({ intent: Intent }),
    response: Type.Object({ intentId: IntentId }),
  },
  ExecuteIntent: {
    auth: true,
    request: Type.Object({
      intentId: IntentId,
      depositTransactionHash: Opt(TxHash),
      depositSignature: Opt(DepositSignature),
    }),
    response: Type.Object({ intentId: IntentId, intentStatus: IntentStatus }),
  },
  WaitIntentReceipt: {
    auth: true,
    request: Type.Object({ intentId: IntentId, lastReceiptStates: Opt(Type.Array(TransactionStatus)) }),
    response: Type.Object({
      intentReceipt: IntentReceipt,
      receiptStates: Type.Array(TransactionStatus),
      done: Bool,
    }),
  },
  GetIntentReceipt: {
    auth: true,
    request: Type.Object({ intentId: IntentId }),
    response: Type.Object({ intentReceipt: IntentReceipt }),
  },
  GetIntent: {
    auth: true,
    request: Type.Object({ intentId: IntentId }),
    response: Type.Object({ intent: Intent }),
  },
  SearchIntents: {
    auth: true,
    request: Type.Object({
      byIntentId: Opt(IntentId),
      byProjectId: Opt(NonNegativeInt),
      byTransactionHash: Opt(TxHash),
      byDepositTransactionHash: Opt(TxHash),
      byOwnerAddress: Opt(Address),
      byOriginIntentAddress: Opt(Address),
      byDestinationIntentAddress: Opt(Address),
      byQueryString: Opt(Str({ maxLength: 200 })),
      ...EdgeFilters,
    }),
    response: Type.Object({ intents: Type.Array(Intent) }),
  },
  GetIntentHistory: {
    auth: true,
    request: Type.Object({
      ...HistoryFilters,
      byParticipantAddresses: Opt(Type.Array(Address, { maxItems: 100 })),
      byStatus: Opt(IntentStatus),
      byStatuses: Opt(Type.Array(IntentStatus)),
      originChainId: Opt(ChainId),
      destinationChainId: Opt(ChainId),
      originTokenAddress: Opt(Address),
      destinationTokenAddress: Opt(Address),
      byIntentProtocol: Opt(IntentProtocolVersion),
      bySwapProvider: Opt(RouteProvider),
      byBridgeProvider: Opt(RouteProvider),
      ...EdgeFilters,
      fromTime: Opt(NonNegativeInt),
      toTime: Opt(NonNegativeInt),
      includeBalances: Opt(Bool),
      onlyRecoverable: Opt(Bool),
    }),
    response: Type.Object({ intents: Type.Array(IntentHistory), nextPage: Opt(Page) }),
  },
  GetIntentTransactionHistory: {
    auth: true,
    request: Type.Object(HistoryFilters),
    response: Type.Object({ intents: Type.Array(IntentSummary), nextPage: Opt(Page) }),
  },
  BuildOIFRefundTransaction: {
    auth: true,
    request: Type.Object({ intentId: IntentId }),
    response: Type.Object({
      intentId: IntentId,
      orderId: Opt(TxHash),
      to: Address,
      data: HexData,
      value: Amount,
      chainId: ChainId,
      orderExpiresAt: Opt(Timestamp),
      ready: Bool,
      status: Str(),
    }),
  },
  AbortIntent: {
    auth: true,
    request: Type.Object({ intentId: IntentId, chainId: ChainId, abortTransactionHash: TxHash }),
    response: Type.Object({ intentId: IntentId, status: IntentStatus }),
  },

  PrepareIntentRecovery: {
    auth: true,
    request: Type.Object({
      intentId: IntentId,
      intentAddress: Opt(Address),
      refundToAddress: Opt(Address),
      tokenAddress: Opt(Address),
    }),
    response: Type.Object({
      intentId: IntentId,
      intentProtocol: Str(),
      intentAddress: Address,
      chainId: ChainId,
      intentSource: StringEnum(['origin', 'destination'] as const),
      recoveryTokens: Opt(Type.Array(TokenBalance)),
      payload: Type.Unknown(),
      typedData: Type.Unknown(),
      payloadHash: TxHash,
    }),
  },
  BuildIntentRecoveryTransaction: {
    auth: true,
    request: SignedRecoveryRequest,
    response: Type.Object({
      to: Address,
      data: HexData,
      value: Amount,
      chainId: ChainId,
      intentAddress: Address,
      requiresDeploy: Bool,
      payloadHash: Opt(TxHash),
    }),
  },
  RelayIntentRecovery: {
    auth: true,
    request: SignedRecoveryRequest,
    response: Type.Object({
      intentId: IntentId,
      chainId: ChainId,
      intentAddress: Address,
      transactionHash: TxHash,
      transactionStatus: StringEnum(['SUCCEEDED', 'REVERTED'] as const),
      fee: Amount,
    }),
  },
  RetryIntent: {
    auth: true,
    request: Type.Object({ intentId: IntentId, depositTransactionHash: TxHash }),
    response: Type.Object({ intentId: IntentId, intentStatus: IntentStatus }),
  },

  GetChains: {
    auth: true,
    // 0.9.4 types it as a free string; the value is checked against ROUTE_PROVIDERS in the handler.
    request: Type.Object({ routeProvider: Opt(Str()) }),
    response: Type.Object({ chains: Type.Array(ChainInfo) }),
  },
  GetExactOutputRoutes: {
    auth: true,
    request: Type.Object({
      destinationChainId: ChainId,
      destinationTokenAddress: Address,
      originChainId: Opt(ChainId),
      originTokenAddress: Opt(Address),
      ownerAddress: Opt(Address),
    }),
    response: Type.Object({ tokens: Type.Array(TokenInfo) }),
  },
  GetExactInputRoutes: {
    auth: true,
    request: Type.Object({
      originChainId: ChainId,
      originTokenAddress: Address,
      destinationChainId: Opt(ChainId),
      destinationTokenAddress: Opt(Address),
    }),
    response: Type.Object({ tokens: Type.Array(TokenInfo) }),
  },
  GetTokenList: {
    auth: true,
    request: Type.Object({
      chainIds: Type.Array(ChainId, { maxItems: 1000 }),
      searchQuery: Opt(Str({ maxLength: 200 })),
      limit: Opt(
        Type.Integer({ minimum: 1, maximum: 10_000, 'x-error': 'must be an integer from 1 to 10000' }),
      ),
      tokenAddress: Opt(Address),
      includeAllListed: Opt(Bool),
      includeExternal: Opt(Bool),
      excludeTokens: Opt(Type.Array(Str(), { maxItems: 1000 })),
    }),
    response: Type.Object({ tokens: Type.Array(TokenInfo) }),
  },
  GetTokenPrices: {
    auth: true,
    request: Type.Object({ tokens: Type.Array(Token, { maxItems: 1000 }) }),
    response: Type.Object({ tokenPrices: Type.Array(TokenPrice) }),
  },
  GetTrailsContracts: {
    auth: true,
    request: Empty,
    response: Type.Object({ TrailsContracts: TrailsContracts }),
  },
  GetProtocolContracts: {
    auth: true,
    request: Type.Object({ intentProtocol: Opt(Str()) }),
    response: Type.Object({
      TrailsContracts: Type.Object(
        { ...TrailsContracts.properties, trailsUtilsAddress: Address },
        { title: 'ProtocolContracts' },
      ),
    }),
  },
  GetSupportedIntentProtocols: {
    auth: true,
    request: Empty,
    response: Type.Object({ versions: Type.Array(Str()) }),
  },
  GetDefaultIntentProtocol: {
    auth: true,
    request: Empty,
    response: Type.Object({ version: Str() }),
  },

  GetExchangeRate: {
    auth: true,
    request: Type.Object({ toCurrency: Opt(Str({ maxLength: 16 })) }),
    response: Type.Object({
      exchangeRate: Type.Object(
        { name: Str(), symbol: Str(), value: Type.Number(), vsCurrency: Str(), currencyType: Str() },
        { title: 'ExchangeRate' },
      ),
    }),
  },
  GetFiatCurrencyList: {
    auth: true,
    request: Empty,
    response: Type.Object({
      currencies: Type.Array(
        Type.Object(
          { code: Str(), symbol: Str(), name: Str(), flag: Str(), decimals: NonNegativeInt },
          { title: 'FiatCurrency' },
        ),
      ),
    }),
  },
  GetEdges: {
    auth: true,
    request: Empty,
    response: Type.Object({
      edges: Type.Array(Type.Object({ rail: Str(), modes: Type.Array(Str()) }, { title: 'EdgeRailModes' })),
    }),
  },
  GetCountryList: {
    auth: true,
    request: Empty,
    response: Type.Object({
      countries: Type.Array(
        Type.Object(
          { countryCode: Str(), name: Str(), flag: Str(), flagImageUrl: Str() },
          { title: 'Country' },
        ),
      ),
    }),
  },

  YieldGetMarkets: {
    auth: true,
    request: Type.Object({
      provider: Opt(Str()),
      chainId: Opt(Str({ pattern: '^[0-9]{1,16}$', 'x-error': 'must be a chain id as a decimal string' })),
      type: Opt(Str()),
      search: Opt(Str({ maxLength: 200 })),
      sort: Opt(Str()),
      limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, 'x-error': 'must be an integer from 1 to 1000' })),
      offset: Opt(NonNegativeInt),
    }),
    response: Type.Object({
      items: Type.Array(Type.Unknown()),
      payload: Type.Unknown(),
      total: NonNegativeInt,
      offset: NonNegativeInt,
      limit: NonNegativeInt,
    }),
  },
  YieldCreateEnterAction: { auth: true, request: YieldActionRequest, response: YieldActionResponse },
  YieldCreateExitAction: { auth: true, request: YieldActionRequest, response: YieldActionResponse },
  YieldGetMarketById: {
    auth: true,
    request: Type.Object({ marketId: Str() }),
    response: Type.Object({ market: Type.Unknown() }),
  },
  YieldGetAggregateBalances: {
    auth: true,
    request: AggregateBalancesRequest,
    response: AggregateBalancesResponse,
  },
  YieldGetProviders: {
    auth: true,
    request: YieldPageRequest,
    response: Type.Object({
      items: Type.Array(YieldProvider),
      total: NonNegativeInt,
      offset: NonNegativeInt,
      limit: NonNegativeInt,
    }),
  },
  YieldGetProvider: {
    auth: true,
    request: Type.Object({ providerId: Str() }),
    response: Type.Object({ provider: YieldProvider }),
  },
  YieldGetNetworks: {
    auth: true,
    request: Empty,
    response: Type.Object({ networks: Type.Array(YieldNetwork) }),
  },
  GetEarnPools: { auth: true, request: EarnPoolsRequest, response: EarnPoolsResponse },
} as const satisfies Record<string, { auth: boolean; request: TSchema; response: TSchema }>;

export type MethodName = keyof typeof METHODS;
export type MethodRequest<M extends MethodName> = StaticDecode<(typeof METHODS)[M]['request']>;
export type MethodResponse<M extends MethodName> = StaticDecode<(typeof METHODS)[M]['response']>;

/** Alternative method names accepted on either prefix (the seed's neutral spelling). */
export const METHOD_ALIASES: Record<string, MethodName> = { GetServiceContracts: 'GetTrailsContracts' };
