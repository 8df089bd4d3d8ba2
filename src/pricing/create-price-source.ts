/**
 * The price source: USD prices per (chain, token) for GetTokenPrices and the quote's fee maths.
 *
 * A configured static price (`prices: { "<chainId>:<address>": usd }`) wins; otherwise a chain with a
 * Uniswap V2 or V3 factory and a USD reference token is priced from its pools (the devnet); otherwise
 * there is no price (undefined). Results, misses included, are cached for `ttlMs`.
 */
import { type Address, createPublicClient, http, isAddress, type PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import { PRICE_READ_TIMEOUT_MS, PRICE_TTL_MS } from './constants.ts';
import { createPoolPricer, hasPoolPricing } from './pool-price.ts';
import { createPriceCache } from './price-cache.ts';
import { parseStaticPrices, priceKey } from './static-prices.ts';

export interface PriceSourceDeps {
  chains: readonly ChainConfig[];
  /** Read clients per chain id; a chain without one gets an HTTP client on its first RPC URL. */
  clients?: ReadonlyMap<number, PublicClient> | undefined;
  /** Static USD prices, `{ "<chainId>:<address>": usd }` (zero address = native currency). */
  prices?: Readonly<Record<string, number>> | undefined;
  log: Logger;
  ttlMs?: number | undefined;
  /** Clock in ms (tests move it to expire the cache). */
  now?: (() => number) | undefined;
}

export interface PriceSource {
  /** USD per whole token, or undefined when no source knows the token. */
  getPriceUsd(chainId: number, token: string): Promise<number | undefined>;
  /** When the price last served for this token was read; undefined before the first read. */
  updatedAt(chainId: number, token: string): Date | undefined;
}

export function createPriceSource(deps: PriceSourceDeps): PriceSource {
  const now = deps.now ?? Date.now;
  const staticPrices = parseStaticPrices(deps.prices);
  const chainById = new Map(deps.chains.map((c) => [c.chainId, c]));
  const cache = createPriceCache({ ttlMs: deps.ttlMs ?? PRICE_TTL_MS, now });
  const created = new Map<number, PublicClient>();
  const getClient = (chainId: number): PublicClient => {
    const given = deps.clients?.get(chainId) ?? created.get(chainId);
    if (given) return given;
    const rpcUrl = chainById.get(chainId)?.rpcUrls[0];
    const client = createPublicClient({
      transport: http(rpcUrl, { timeout: PRICE_READ_TIMEOUT_MS, retryCount: 0 }),
    }) as PublicClient;
    created.set(chainId, client);
    return client;
  };
  const poolPriceUsd = createPoolPricer({ getClient });

  const readPrice = async (chain: ChainConfig, token: Address): Promise<number | undefined> => {
    try {
      return await poolPriceUsd(chain, token);
    } catch (error) {
      deps.log.warn('no pool price: chain read failed', {
        chainId: chain.chainId,
        token,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };

  return {
    async getPriceUsd(chainId, token) {
      if (!isAddress(token, { strict: false })) return undefined;
      const key = priceKey(chainId, token);
      const fixed = staticPrices.get(key);
      if (fixed !== undefined) return fixed;
      const chain = chainById.get(chainId);
      if (!chain || !hasPoolPricing(chain)) return undefined;
      return (await cache.get(key, () => readPrice(chain, token as Address))).priceUsd;
    },
    updatedAt(chainId, token) {
      const entry = cache.peek(priceKey(chainId, token));
      return entry ? new Date(entry.readAt) : undefined;
    },
  };
}
