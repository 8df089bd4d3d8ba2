/** Catalogue records: chains, tokens, prices, runtime status. */
import { type StaticDecode, Type } from '@sinclair/typebox';
import { Address, Bool, ChainId, NonNegativeInt, Opt, Str, Timestamp, Usd } from './wire.ts';

/** Both forms of the seed's ChainInfo in one record (flat for 0.9.4, nested for 0.18.4). */
export const ChainInfo = Type.Object(
  {
    id: ChainId,
    name: Str(),
    tokenName: Str(),
    tokenSymbol: Str(),
    tokenDecimals: NonNegativeInt,
    isTestnet: Bool,
    supportsBridging: Bool,
    logoUri: Opt(Str()),
    blockExplorerUrl: Opt(Str()),
    nativeCurrency: Type.Object({ name: Str(), symbol: Str(), decimals: NonNegativeInt }),
    blockExplorer: Opt(Type.Object({ name: Str(), url: Str() })),
  },
  { title: 'ChainInfo' },
);
export type ChainInfo = StaticDecode<typeof ChainInfo>;

export const TokenInfo = Type.Object(
  {
    chainId: ChainId,
    address: Address,
    name: Str(),
    symbol: Str(),
    decimals: NonNegativeInt,
    supportsBridging: Opt(Bool),
    logoUri: Opt(Str()),
    featured: Bool,
    /** The token's place in its chain's list (featured first, then configured order). */
    featureIndex: Opt(NonNegativeInt),
  },
  { title: 'TokenInfo' },
);
export type TokenInfo = StaticDecode<typeof TokenInfo>;

export const Token = Type.Object(
  { chainId: ChainId, tokenAddress: Address, tokenSymbol: Opt(Str()) },
  { title: 'Token' },
);
export type Token = StaticDecode<typeof Token>;

export const TokenPrice = Type.Object(
  { token: Token, priceUsd: Opt(Usd), updatedAt: Timestamp },
  { title: 'TokenPrice' },
);

export const ServiceStatus = Type.Object(
  {
    name: Str(),
    healthy: Bool,
    error: Opt(Str()),
    latency: Str(),
    /** A chain that answers but needs the operator: the solver's inventory low, gas above its cap. */
    degraded: Opt(Bool),
    /** Why it is degraded (several reasons joined by "; "). */
    warning: Opt(Str()),
  },
  { title: 'ServiceStatus' },
);

export const RuntimeStatus = Type.Object(
  {
    healthOK: Bool,
    version: Str(),
    branch: Str(),
    commitHash: Str(),
    startTime: Timestamp,
    uptime: Str({ description: 'seconds since start, e.g. "42s"' }),
    uptimeSeconds: Type.Number(),
    hostname: Str(),
    walletScreeningEnabled: Opt(Bool),
    edgesEnabled: Opt(Type.Array(Str())),
    runnables: Type.Unknown(),
    services: Type.Array(ServiceStatus),
  },
  { title: 'RuntimeStatus' },
);
export type RuntimeStatus = StaticDecode<typeof RuntimeStatus>;
