/** Tuning numbers of the solver's inventory and chain health, each with its unit and the reason for its value. */

/**
 * A quote's view of the solver's inventory of one token (its balance, and what open orders hold) is reused
 * this long (ms): a quote is only advisory (the commit checks again, fresh), and under load it saves a
 * balance read and a database query per quote. A commit in this process drops the view at once.
 */
export const INVENTORY_CACHE_MS = 1_000;
/**
 * How often the API process compares the solver's inventory with each token's low-water mark and each
 * chain's fees with its cap (ms): an operator rebalances in minutes, and each round costs one balance read
 * per marked token, one query and one block read per capped chain.
 */
export const CHAIN_HEALTH_CHECK_MS = 15_000;
