/**
 * The yield service: the market registry resolved from the chains' configuration, one market reader (which
 * keeps vault metadata and share-price samples in memory for the life of this service) and the two
 * operations built on them. Pass it to `createApiServer({ yield })`, which serves them as YieldGetMarkets and
 * YieldCreateEnterAction.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import { createEnterAction, type EnterAction, type EnterRequest } from './create-enter-action.ts';
import { createMarketReader } from './create-market-reader.ts';
import { createRateTracker } from './create-rate-tracker.ts';
import { createGetMarkets, type MarketPage } from './get-markets.ts';
import type { MarketQueryInput } from './parse-market-query.ts';
import { resolveMarkets } from './resolve-markets.ts';
import type { MarketConfig, YieldServiceDeps } from './types.ts';

/** A vault read answers in milliseconds; 10 s means the node is down, and the market is left out. */
const VAULT_READ_TIMEOUT_MS = 10_000;

export interface YieldService {
  /** The resolved registry (what getMarkets lists before filters). */
  markets: readonly MarketConfig[];
  /** The configured markets that match the query, read live, sorted and paged. */
  getMarkets(query: MarketQueryInput): Promise<MarketPage>;
  /** The approve and deposit calls that put the wallet's tokens into a market. */
  createEnterAction(request: EnterRequest): Promise<EnterAction>;
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
  return {
    markets,
    getMarkets: createGetMarkets({ markets, reader, log: deps.log }),
    createEnterAction: createEnterAction({ markets, reader, getClient }),
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
