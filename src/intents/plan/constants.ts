/** Tuning numbers of the plan builder, each with its unit and the reason for its value. */

/** Seconds a quote stays committable (DESIGN §3: quotes expire after 5 minutes). */
export const QUOTE_TTL_SECONDS = 300n;
/** Seconds after commit during which the deposit must arrive and the origin run (DESIGN §3: 10 minutes). */
export const EXECUTE_WINDOW_SECONDS = 600n;
/**
 * Seconds after the origin deadline during which the solver may still fill: the origin can run at the last
 * second of its window, and a fill needs the origin transaction final first.
 */
export const FILL_WINDOW_SECONDS = 600n;
/** Seconds after the fill deadline during which the destination intent may still execute. */
export const DESTINATION_WINDOW_SECONDS = 600n;
/** Default settlement grace (DESIGN §4: 10 minutes); the deployed OriginSettler's value is what counts. */
export const DEFAULT_SETTLEMENT_GRACE_SECONDS = 600n;

/** Default slippage tolerance: 0.5 %, the usual default of swap front-ends for liquid pairs. */
export const DEFAULT_SLIPPAGE_TOLERANCE = 0.005;
/** Slippage is applied as an integer fraction of this scale (parts per million) to keep money in bigint. */
export const SLIPPAGE_SCALE = 1_000_000n;
export const BPS = 10_000n;

/**
 * The quote prices gas at base fee × 3/2 + priority fee (legacy chains: gas price × 3/2): the base fee can
 * rise 12.5 % a full block, and 3/2 covers three full blocks in a row between the quote and the execution;
 * the priority fee is the node's suggestion and does not compound the same way. Never above the chain's cap.
 */
export const BASE_FEE_QUOTE_MARGIN_NUMERATOR = 3n;
export const BASE_FEE_QUOTE_MARGIN_DENOMINATOR = 2n;
/**
 * A chain's fees read for one quote serve the quotes of the next second on that chain (ms): the base fee
 * moves once a block and at most 12.5 %, well inside the margin above; under load it saves two reads a quote.
 */
export const QUOTE_FEE_CACHE_MS = 1_000;

/**
 * Gas of `deployIfNeededAndExecute` around the calls: clone deployment, hash check, deposit check, sweep.
 * Measured on the devnet (~150k for an origin account with no calls) plus margin.
 */
export const EXECUTE_BASE_GAS = 200_000n;
/** An ERC-20 `transfer` or a native send from the account (fee, delivery). */
export const TRANSFER_GAS = 40_000n;
/** A destination contract call (e.g. an ERC-4626 deposit) whose cost we cannot know in advance. */
export const DESTINATION_CALL_GAS = 200_000n;
/**
 * WITHDRAW's first origin call, an ERC-4626 `redeem` into the account: share burn, the vault's accounting and
 * an asset transfer, ~70k for an OpenZeppelin vault; vaults that pull from a strategy on redeem cost more.
 */
export const VAULT_REDEEM_GAS = 150_000n;
/** Gas the destination account must have left before its calls run, over their estimate (63/64 rule margin). */
export const DESTINATION_MIN_GAS_MARGIN = 50_000n;

/** USD prices are turned into integers at this scale (1e12) to convert amounts between tokens in bigint. */
export const PRICE_SCALE = 1_000_000_000_000n;

/** Typical time from deposit to delivery on one chain: two blocks of ~2 s plus relaying (seconds). */
export const SAME_CHAIN_DURATION_SECONDS = 10;
/** Typical time across chains: origin, fill, destination, each a few blocks plus finality (seconds). */
export const CROSS_CHAIN_DURATION_SECONDS = 30;

/** The 32-byte placeholder the official client writes where the delivered amount belongs. */
export const AMOUNT_PLACEHOLDER = `0x${'deadbeef'.repeat(8)}` as const;
