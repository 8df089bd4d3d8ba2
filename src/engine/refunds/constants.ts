/** Tuning numbers of the refund steps, each with its unit and the reason for its value. */

/**
 * Longest wait (ms) between two reads of a chain clock a refund step is waiting on (the origin deadline,
 * fillDeadline + grace). Chain time can run ahead of ours (slow blocks catching up, anvil warps), so the
 * step does not sleep until our estimate of the moment: it looks again at least this often.
 */
export const REFUND_RECHECK_MAX_MS = 300_000;
/** Shortest such wait (ms): a deadline due in under a second is not polled in a busy loop. */
export const REFUND_RECHECK_MIN_MS = 1_000;
/**
 * How long (chain seconds after the origin deadline) the engine keeps watching an intent address for late
 * deposits and returns them. After that the address is still refundable by anyone (the account is executed
 * or expired), but only by hand: a day covers a wallet or exchange withdrawal that arrives late.
 */
export const LATE_DEPOSIT_WATCH_SECONDS = 86_400n;
/** How often (ms) an address is re-read for late deposits during the watch window: 288 reads a day. */
export const LATE_DEPOSIT_RECHECK_MS = 300_000;
/** Journal purposes: one per refund round (a late deposit after a refund gets a new round). */
export const ORIGIN_REFUND_PURPOSE_PREFIX = 'origin-refund:';
export const ORDER_REFUND_PURPOSE = 'order-refund';
/** Journal purposes of the destination refund: one per round (a skipped token gets a new round). */
export const DESTINATION_REFUND_PURPOSE_PREFIX = 'destination-refund:';
