/** Tuning numbers of the engine, each with its unit and the reason for its value. */

/**
 * How long a leased step stays with its worker without a heartbeat (ms): a killed worker's steps are taken
 * over after at most this long. Short because a live worker renews it (STEP_LEASE_RENEW_MS) while it runs.
 */
export const STEP_LEASE_MS = 10_000;
/**
 * A worker looks this often (ms) for leases held by workers that died on its machine and ends them
 * (end-dead-workers-leases.ts): well under STEP_LEASE_MS, at one small read of the lease owners per look.
 */
export const DEAD_WORKER_LOOK_MS = 2_000;
/** A running worker extends the leases of its steps in flight this often (ms): four renewals per lease. */
export const STEP_LEASE_RENEW_MS = 2_500;
/**
 * A stopping engine waits this long (ms) for the steps it is running, then hands the rest back (their
 * transactions journaled, nothing new signed) for another worker to take at once. Most steps end within a
 * block; ten seconds covers a block on most chains and leaves room under a process manager's stop timeout
 * (systemd's default is 90 s, the unit in docs/operations.md says 30).
 */
export const ENGINE_STOP_WAIT_MS = 10_000;
/**
 * Steps run at once by one worker. A send step keeps its slot while it waits for its block (up to a block
 * time), so the slots must cover every intent in flight: on 1-second blocks at 20 in flight, 16 slots queued
 * ready steps behind waiting ones and cost a block per hop (bench/e2e.ts: p99 7 blocks at 16, 4 at 64, the
 * bare chain's 4). Waiting steps cost little (one shared head poll per chain).
 */
export const STEP_BATCH_SIZE = 64;
/**
 * The runner's second look after an intent change, and its poll without due times (ms); with them it polls
 * every STEP_IDLE_POLL_INTERVAL_MS (step-wakeups.ts). Enqueues in this process wake it at once.
 */
export const STEP_POLL_INTERVAL_MS = 250;
/** First retry delay (ms) after a retryable error; doubles per attempt. */
export const RETRY_BASE_DELAY_MS = 500;
/** Retry delays stop growing here (ms): a chain that comes back is noticed within 5 minutes. */
export const RETRY_MAX_DELAY_MS = 300_000;
/** A deposit not (yet) enough, or not yet deep enough, is looked at again after this long (ms). */
export const DEPOSIT_RECHECK_MS = 1_000;
/**
 * A deposit still short this long before the origin deadline (chain seconds) fails the intent: the owner has
 * these last 5 minutes to send the rest and call RetryIntent; otherwise what arrived is returned after the
 * deadline. Before this point a top-up needs nothing else (the deposit step keeps looking).
 */
export const SHORT_DEPOSIT_RETRY_WINDOW_SECONDS = 300n;
/** The watcher looks for deposits to COMMITTED intents (sent without ExecuteIntent) this often (ms). */
export const DEPOSIT_SCAN_INTERVAL_MS = 2_000;
/** Committed intents checked per watcher round: bounds the RPC reads of one round. */
export const DEPOSIT_SCAN_BATCH = 200;
/**
 * Blocks one eth_getLogs of the watch for deposits to quotes never committed covers at most: hosted RPCs
 * commonly refuse wider ranges. A watch that is behind (after a restart) catches up this many a round.
 */
export const QUOTED_WATCH_MAX_BLOCKS = 1_000n;
/**
 * How long after a quote is made its address is watched for native deposits (ms). A native transfer leaves
 * no log, so each address costs a balance read; 75 minutes covers the quote's 5, the 10 more to the origin
 * deadline and an hour for a slow wallet. Token deposits are watched by logs for as long as the quote is
 * stored, at no cost per quote.
 */
export const QUOTED_NATIVE_WATCH_MS = 4_500_000;
/** Native quote addresses read per watcher round (one balance read each): bounds the round's RPC cost. */
export const QUOTED_NATIVE_SCAN_BATCH = 50;
/** How far back (blocks) logs are searched for a deposit transfer or an event: about 3 hours of 1 s blocks. */
export const LOG_LOOKBACK_BLOCKS = 10_000n;
/** Steps whose last error is longer get it cut (characters): keeps the journal row readable. */
export const MAX_ERROR_LENGTH = 1_000;
/**
 * Orders kept in memory for the steps after the origin one (src/engine/order-memo.ts): at ~1 KB each, a few
 * MB; enough for every intent in flight, whose fill and settle follow their origin within seconds.
 */
export const ORDER_MEMO_SIZE = 4_096;
/**
 * The destination step found the account not yet funded while the fill is in the pool (its early execution
 * landed first and reverted): look again this often (ms), a quarter of a 1-second block.
 */
export const FILL_LANDING_RECHECK_MS = 250;
/**
 * The destination account is not funded and no fill is in the pool (the fill step is retrying, or its fill
 * reverted and the order refund follows): look again this often (ms), until a fill lands or the intent ends.
 */
export const FILL_ABSENT_RECHECK_MS = 10_000;
/**
 * The chain watch (src/engine/chain-watch.ts) reads each chain's head this often (ms): one eth_blockNumber per
 * chain. An outage shorter than this may go unseen; a node that comes back behind is still caught by its
 * head going back, or by the periodic check below.
 */
export const CHAIN_WATCH_INTERVAL_MS = 2_000;
/**
 * Every chain's journal is checked for lost mined transactions this often (ms) even when the chain looked
 * healthy throughout: a deep reorg keeps the node up and its head ahead. Each check is one indexed query and
 * one eth_getTransactionCount per operator key and chain.
 */
export const LOST_TRANSACTIONS_CHECK_MS = 600_000;
/**
 * A settle step waits this long (ms) at most for others to share its settlement transaction
 * (src/engine/settlement-batcher.ts). Settlement is operator work the user does not wait for; a quarter
 * second gathers ~10 orders at 40 intents/s while the waiting steps hold few runner slots.
 */
export const SETTLE_BATCH_WINDOW_MS = 250;
/**
 * Orders per settlement transaction at most. Each waiting settle step holds a runner slot
 * (STEP_BATCH_SIZE), and one batch waits while another is in flight, so at most twice this many slots go
 * to settlement; 16 orders use ~0.7 M gas, far below any block's limit.
 */
export const SETTLE_BATCH_MAX_ORDERS = 16;
