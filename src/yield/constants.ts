/** Tuning numbers of the yield markets, each with its unit and the reason for its value. */

/** Seconds in a (365-day) year: the period rates are annualised to. */
export const SECONDS_PER_YEAR = 31_536_000;

/**
 * Extra share scale for sampling the share price: `convertToAssets(10**decimals × PRICE_SAMPLE_SCALE)`.
 * One whole share of a 6-decimal vault is worth ~10^6 base units, so a day's growth at 5 % a year is ~137
 * units and rounding alone would move the rate by ~1 %; 10^18 more shares push rounding below 10^-18.
 */
export const PRICE_SAMPLE_SCALE = 10n ** 18n;

/**
 * Seconds of share-price history the rate averages over: a week, the window yield dashboards usually
 * quote ("7-day APY"); shorter would let one odd block swing the figure, longer would lag rate changes.
 */
export const RATE_WINDOW_SECONDS = 7 * 24 * 3600;

/**
 * Seconds between two stored samples of one market: calls closer together reuse the stored reference and
 * are not stored themselves, which bounds memory to ~RATE_WINDOW_SECONDS / SAMPLE_SPACING_SECONDS (~1000)
 * samples per market however often markets are listed.
 */
export const SAMPLE_SPACING_SECONDS = 600;

/**
 * Blocks the first call walks back (one at a time) looking for an earlier block with a smaller timestamp,
 * when the node gives several blocks the same timestamp; more than a few means no usable history.
 */
export const HISTORY_MAX_STEPS = 8;

/** Provider id of vaults named in `contracts` (…Vault) without an explicit market entry: plain ERC-4626. */
export const DEFAULT_PROVIDER_ID = 'erc4626';

/** `limit` when the request has none: a page the 0.18.4 widget also asks for (it pages by 100). */
export const DEFAULT_LIMIT = 100;

/** Contract names in `ChainConfig.contracts` that are ERC-4626 vaults to list (`usdcVault`, `daiVault`). */
export const VAULT_CONTRACT_SUFFIX = 'Vault';
