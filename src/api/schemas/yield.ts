/**
 * The yield methods' request and response members (the reference's names). Markets and actions are open JSON
 * (`Type.Unknown`): each is sent in the two forms clients read (docs/yield.md), which one schema cannot type.
 */
import { Type } from '@sinclair/typebox';
import { Address, Bool, ChainId, NonNegativeInt, Opt, Str } from './wire.ts';

/** Queries in one YieldGetAggregateBalances call: the reference's client sends them 25 at a time. */
const MAX_BALANCE_QUERIES = 100;

export const YieldActionRequest = Type.Object({
  earnMarketId: Str(),
  userWalletAddress: Address,
  args: Opt(Type.Unknown()),
});
export const YieldActionResponse = Type.Object({ action: Type.Unknown(), payload: Type.Unknown() });

export const YieldPageRequest = Type.Object({
  limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, 'x-error': 'must be an integer from 1 to 1000' })),
  offset: Opt(NonNegativeInt),
});

const YieldToken = Type.Object(
  {
    symbol: Str(),
    name: Str(),
    decimals: NonNegativeInt,
    network: Str(),
    address: Opt(Str()),
    chainId: Opt(Str()),
  },
  { title: 'YieldToken' },
);

const YieldBalance = Type.Object(
  {
    address: Str(),
    type: Str(),
    amount: Str(),
    amountRaw: Str(),
    amountUsd: Opt(Str()),
    pendingActions: Type.Array(Type.Unknown()),
    token: YieldToken,
    isEarning: Bool,
    shareAmount: Opt(Str()),
    shareAmountRaw: Opt(Str()),
    shareToken: Opt(YieldToken),
    earnedAmount: Opt(Str()),
    earnedAmountRaw: Opt(Str()),
    earnedAmountUsd: Opt(Str()),
    costBasisRaw: Opt(Str()),
    blockNumber: Opt(Str()),
  },
  { title: 'YieldBalance' },
);

export const YieldBalanceQuery = Type.Object(
  {
    yieldId: Opt(Str()),
    address: Address,
    network: Str({ maxLength: 200 }),
    arguments: Opt(Type.Unknown()),
  },
  { title: 'YieldBalanceQuery' },
);

export const AggregateBalancesRequest = Type.Object({
  queries: Type.Array(YieldBalanceQuery, { maxItems: MAX_BALANCE_QUERIES }),
});
export const AggregateBalancesResponse = Type.Object({
  items: Type.Array(
    Type.Object({ yieldId: Str(), balances: Type.Array(YieldBalance) }, { title: 'YieldBalances' }),
  ),
  errors: Type.Array(Type.Object({ yieldId: Str(), error: Str() }, { title: 'YieldError' })),
});

export const YieldProvider = Type.Object(
  {
    id: Str(),
    name: Str(),
    logoURI: Str(),
    description: Str(),
    website: Str(),
    tvlUsd: Type.Union([Type.Number(), Type.Null()]),
    type: Str(),
    references: Type.Array(Str()),
    supportsBeneficiary: Bool,
    marketIds: Type.Array(Str()),
    chainIds: Type.Array(Str()),
  },
  { title: 'YieldProvider' },
);

export const YieldNetwork = Type.Object(
  { id: Str(), name: Str(), category: Str(), logoURI: Str(), chainId: Str() },
  { title: 'YieldNetwork' },
);

export const EarnPoolsRequest = Type.Object({
  chainIds: Opt(Type.Array(ChainId, { maxItems: 1000 })),
  protocols: Opt(Type.Array(Str({ maxLength: 200 }), { maxItems: 1000 })),
  minTvl: Opt(Type.Number({ 'x-error': 'must be a number (US dollars)' })),
  maxApy: Opt(Type.Number({ 'x-error': 'must be a number (a fraction: 0.05 = 5 %)' })),
});

const EarnPool = Type.Object(
  {
    id: Str(),
    name: Str(),
    protocol: Str(),
    chainId: ChainId,
    apy: Type.Number(),
    tvl: Type.Number(),
    token: Type.Object(
      { symbol: Str(), name: Str(), address: Str(), decimals: NonNegativeInt, logoUrl: Opt(Str()) },
      { title: 'PoolTokenInfo' },
    ),
    depositAddress: Str(),
    isActive: Bool,
    poolUrl: Opt(Str()),
    protocolUrl: Opt(Str()),
    wrappedTokenGatewayAddress: Opt(Str()),
  },
  { title: 'EarnPool' },
);

export const EarnPoolsResponse = Type.Object({
  pools: Type.Array(EarnPool),
  timestamp: Str(),
  cached: Bool,
});
