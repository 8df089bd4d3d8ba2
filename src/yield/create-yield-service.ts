/**
 * The yield service: the market registry resolved from the chains' configuration, one market reader (which
 * keeps vault metadata and share-price samples in memory for the life of this service) and the two API
 * methods built on them. Pass the result to `createApiServer({ services })`.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import type { ApiServices } from '../api/context.ts';
import { createEnterAction } from './create-enter-action.ts';
import { createMarketReader } from './create-market-reader.ts';
import { createRateTracker } from './create-rate-tracker.ts';
import { createGetMarkets } from './get-markets.ts';
import { resolveMarkets } from './resolve-markets.ts';
import type { MarketConfig, YieldServiceDeps } from './types.ts';

/** A vault read answers in milliseconds; 10 s means the node is down, and the market is left out. */
const VAULT_READ_TIMEOUT_MS = 10_000;

export interface YieldService {
  /** The two API methods: spread them into `createApiServer({ services })`. */
  handlers: Required<Pick<ApiServices, 'YieldGetMarkets' | 'YieldCreateEnterAction'>>;
  /** The resolved registry (what YieldGetMarkets lists before filters). */
  markets: readonly MarketConfig[];
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
    handlers: {
      YieldGetMarkets: createGetMarkets({ markets, reader, log: deps.log }),
      YieldCreateEnterAction: createEnterAction({ markets, reader, getClient }),
    },
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
