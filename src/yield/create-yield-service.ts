/**
 * The yield service: the market registry resolved from the chains' configuration, one market reader (which
 * keeps vault metadata and share-price samples in memory for the life of this service) and the operations
 * built on them. Pass it to `createApiServer({ yield })`, which serves them as the Yield… methods and
 * GetEarnPools (docs/yield.md).
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import { createEnterAction, type EnterAction, type EnterRequest } from './create-enter-action.ts';
import { createExitAction, type ExitAction, type ExitRequest } from './create-exit-action.ts';
import { createMarketReader } from './create-market-reader.ts';
import { createRateTracker } from './create-rate-tracker.ts';
import { createMarketLookup } from './find-market.ts';
import { type YieldNetwork, yieldNetworks } from './find-network.ts';
import {
  type AggregateBalances,
  type BalanceQuery,
  createGetAggregateBalances,
} from './get-aggregate-balances.ts';
import { createGetEarnPools, type EarnPoolsQuery } from './get-earn-pools.ts';
import { createGetMarkets, type MarketPage } from './get-markets.ts';
import { createGetProvider } from './get-provider.ts';
import { createGetProviders, type ProviderPage } from './get-providers.ts';
import type { MarketQueryInput } from './parse-market-query.ts';
import type { ProviderSummary } from './read-provider-summary.ts';
import { resolveMarkets } from './resolve-markets.ts';
import type { MarketConfig, MarketReading, YieldServiceDeps } from './types.ts';

/** A vault read answers in milliseconds; 10 s means the node is down, and the market is left out. */
const VAULT_READ_TIMEOUT_MS = 10_000;

export interface YieldService {
  /** The resolved registry (what getMarkets lists before filters). */
  markets: readonly MarketConfig[];
  /** The configured markets that match the query, read live, sorted and paged. */
  getMarkets(query: MarketQueryInput): Promise<MarketPage>;
  /** One market by id, read live; MarketNotFoundError naming `marketId` when there is none. */
  getMarket(marketId: string): Promise<MarketReading>;
  /** The approve and deposit calls that put the wallet's tokens into a market. */
  createEnterAction(request: EnterRequest): Promise<EnterAction>;
  /** The redeem (all) or withdraw (an amount) call that takes the wallet's position out. */
  createExitAction(request: ExitRequest): Promise<ExitAction>;
  /** Positions, their value and the yield earned, per query; failed queries in `errors`. */
  getAggregateBalances(queries: readonly BalanceQuery[]): Promise<AggregateBalances>;
  /** The providers the markets name, paged, with their live TVL. */
  getProviders(page: { limit?: number | undefined; offset?: number | undefined }): Promise<ProviderPage>;
  getProvider(providerId: string): Promise<ProviderSummary>;
  /** The chains that have markets. */
  networks: readonly YieldNetwork[];
  /** The markets as earn pools, filtered. */
  getEarnPools(query: EarnPoolsQuery): Promise<MarketReading[]>;
}

export function createYieldService(deps: YieldServiceDeps): YieldService {
  const markets = resolveMarkets(deps.chains);
  const getClient = clientGetter(deps);
  const reader = createMarketReader({
    getClient,
    prices: deps.prices,
    tracker: createRateTracker(deps.log),
    log: deps.log,
  });
  const lookup = createMarketLookup(markets);
  const networks = yieldNetworks(deps.chains, markets);
  const { log, prices } = deps;
  return {
    markets,
    networks,
    getMarkets: createGetMarkets({ markets, reader, log }),
    getMarket: (marketId) => reader.read(lookup.byId(marketId, 'marketId')),
    createEnterAction: createEnterAction({ lookup, reader, getClient }),
    createExitAction: createExitAction({ lookup, reader, getClient }),
    getAggregateBalances: createGetAggregateBalances({
      markets,
      networks,
      lookup,
      reader,
      prices,
      getClient,
    }),
    getProviders: createGetProviders({ markets, reader, log }),
    getProvider: createGetProvider({ markets, reader, log }),
    getEarnPools: createGetEarnPools({ markets, reader, log }),
  };
}

function clientGetter(deps: YieldServiceDeps): (chainId: number) => PublicClient {
  const created = new Map<number, PublicClient>();
  return (chainId) => {
    const given = deps.clients?.get(chainId) ?? created.get(chainId);
    if (given) return given;
    const rpcUrl = deps.chains.find((c) => c.chainId === chainId)?.rpcUrls[0];
    const client = createPublicClient({
      transport: http(rpcUrl, { timeout: VAULT_READ_TIMEOUT_MS }),
    }) as PublicClient;
    created.set(chainId, client);
    return client;
  };
}
