/**
 * Gas of the calls providers add to an intent account: arithmetic from constants, not eth_estimateGas (at
 * quote time the account does not exist and the deposit is not there, so a simulation would revert).
 * Measured on the devnet with `PLAN_GAS_REPORT=1 npx vitest run test/intents/plan/routes.test.ts`, which also
 * asserts for every route kind that the estimate covers the gas really used; estimates run 1.25–1.6× the
 * measured figures so that a cold storage slot or a longer path does not leave a quote short.
 */

/** ERC-20 `approve` from the account, including the account's allowance reset afterwards. */
export const APPROVE_GAS = 40_000n;
/** One Uniswap V2 swap hop (router overhead, pair `swap`, token transfers). */
export const SWAP_HOP_GAS = 110_000n;
/** WETH9 `deposit()`. */
export const WRAP_GAS = 35_000n;
/** WETH9 `withdraw()` plus the native send that follows. */
export const UNWRAP_GAS = 45_000n;
/** `approve` + `OriginSettler.open` (stores the order, pulls the tokens). */
export const LOCK_GAS = 130_000n;
/** `OriginSettler.settle`: attestation check, status write, payout. */
export const SETTLE_GAS = 110_000n;
/** `DestinationSettler.fill`: order id, fill record, transfer from the solver. */
export const FILL_GAS = 110_000n;
/**
 * SwapRouter02's `multicall(deadline, …)` around a route's swaps: the deadline check and one delegatecall per
 * part (measured: a V2 hop through it costs ~6,000 more than through Router02).
 */
export const SWAP_ROUTER02_BASE_GAS = 15_000n;
/**
 * One Uniswap V3 hop through SwapRouter02 (pool swap, callback, token transfers), crossing no tick: measured
 * ~79,000–100,000 for a first hop and ~66,000 for a second.
 */
export const V3_SWAP_HOP_GAS = 115_000n;
/** Each initialized tick a V3 swap crosses (the tick's fee and oracle words, the liquidity update). */
export const V3_TICK_CROSS_GAS = 30_000n;
