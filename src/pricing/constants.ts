/** Tuning numbers of the price source, each with its unit and reason. */

/**
 * How long a price is served from memory, in ms. Pool reserves move with every swap, so prices must
 * be fresh; 10 s still turns a burst of quotes and GetTokenPrices calls into one chain read per token.
 */
export const PRICE_TTL_MS = 10_000;

/** An RPC read that takes longer than this (ms) gives no price rather than stalling a quote. */
export const PRICE_READ_TIMEOUT_MS = 3_000;

/**
 * Fixed-point scale (1e18) for the reserve ratio: the division is done in bigint at this precision
 * and only the final ratio becomes a float, so an 18-decimal token against a 6-decimal one keeps
 * every significant digit a float can hold.
 */
export const RATIO_SCALE = 10n ** 18n;

/**
 * Tokens whose prices are kept (~100 bytes each). GetTokenPrices names any address, so the cache needs a
 * bound; the least recently used token goes first, far beyond the tokens anyone actually trades.
 */
export const PRICE_CACHE_MAX_TOKENS = 10_000;
