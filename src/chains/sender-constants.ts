/** Tuning numbers of the transaction sender, each with its unit and the reason for its value. */

/** Gas limit = estimate × 5/4: state can move between estimate and inclusion (balances, storage slots warmed). */
export const GAS_LIMIT_MARGIN_NUMERATOR = 5n;
export const GAS_LIMIT_MARGIN_DENOMINATOR = 4n;
/** maxFeePerGas = 2 × base fee + tip: survives six consecutive full blocks (+12.5 % each) before it is outbid. */
export const BASE_FEE_HEADROOM = 2n;
/** A replacement at the same nonce scales both fee caps by 5/4; nodes demand at least +10 % (geth) to accept it. */
export const REPLACEMENT_FEE_NUMERATOR = 5n;
export const REPLACEMENT_FEE_DENOMINATOR = 4n;
/**
 * The least rise of each fee a node accepts for a replacement at the same nonce: 11/10 (geth's default
 * price bump, 10 %). Under a fee cap a replacement that cannot rise this much is not sent (fee-caps.ts).
 */
export const MIN_REPLACEMENT_BUMP_NUMERATOR = 11n;
export const MIN_REPLACEMENT_BUMP_DENOMINATOR = 10n;
/** At most this many replacements per transaction: fees then are ~3× the original, enough for any spike we accept. */
export const MAX_REPLACEMENTS = 5;
/** A broadcast transaction not mined after this long (ms) is replaced with higher fees: ~10 blocks on a 12 s chain. */
export const STUCK_AFTER_MS = 120_000;
/** Re-send the stored raw transaction this often (ms) while waiting: nodes drop transactions from their pools. */
export const REBROADCAST_EVERY_MS = 30_000;
/** Poll for receipts this often (ms): devnet blocks arrive in milliseconds, mainnet ones in seconds. */
export const RECEIPT_POLL_INTERVAL_MS = 100;
/** One attempt waits at most this long (ms) for a receipt and its depth; then the step retries and resumes the wait. */
export const WAIT_PER_ATTEMPT_MS = 60_000;
/**
 * Fee caps read for one send are reused this long (ms) on the same chain: the base fee moves at most
 * +12.5 % a block and BASE_FEE_HEADROOM covers six full blocks, more than fit in a second even at 250 ms blocks.
 */
export const FEE_CACHE_MS = 1_000;
/**
 * The latest block read for fee caps and deadline checks is shared this long (ms) per chain: a deadline is
 * judged at most this far behind the chain's clock, nothing against deadlines of minutes; under load it
 * saves one block read per send and per step that checks a deadline.
 */
export const LATEST_BLOCK_CACHE_MS = 1_000;
/**
 * The chain's pending nonce of a key (a floor under the database's nonce count) is shared this long (ms) by
 * its sends. The database's count decides; the floor only matters when the key was used elsewhere, and a
 * nonce taken that way is caught by the nonce-taken check and signed afresh. One read per key per second
 * instead of one per send.
 */
export const NONCE_FLOOR_CACHE_MS = 1_000;
/**
 * Head poll (ms) of a chain while sends wait on it (one eth_blockNumber per chain, shared): a new block is
 * noticed within this, then each waiting send reads its receipt once. 50 ms is 5 % of a 1 s block.
 */
export const HEAD_POLL_MS = 50;
/**
 * Our nonce is used but our transaction has no receipt: look again after this long (ms) before concluding
 * another transaction took the nonce. Seen on anvil under load (receipt served after the new nonce); a
 * wrong conclusion re-signs an execution that already happened, so a short pause is cheap insurance.
 */
export const NONCE_TAKEN_GRACE_MS = 2_000;
/**
 * While a send waits for its receipt, whether another transaction took its nonce is checked this often (ms),
 * not at every new block: that is an anomaly (the key used elsewhere) and the check costs two reads per
 * waiting send; on 1-second blocks every send paid them at least once.
 */
export const NONCE_TAKEN_CHECK_EVERY_MS = 3_000;
/**
 * Open connections per RPC host of the keep-alive transport (src/chains/keep-alive-fetch.ts): more requests
 * than this queue on the agent. A node answers a few at a time; this bounds file descriptors and its load.
 */
export const MAX_RPC_SOCKETS_PER_HOST = 64;
/** An RPC answer larger than this (bytes) is refused: viem's own default limit for its fetch (10 MB). */
export const MAX_RPC_RESPONSE_BYTES = 10 * 1024 * 1024;
/**
 * A lost transaction sent again (restore-lost-transactions.ts) is waited for this long (ms) before the run
 * stops and leaves the rest, in order, to the next trigger: many blocks on any chain, while a run blocked on
 * a transaction that will not mine (fees, a nonce below it still missing) must not hold the others forever.
 */
export const RESTORE_WAIT_PER_TRANSACTION_MS = 60_000;
/**
 * When the sender stops, a running restore is awaited at most this long (ms) for it to reach its next
 * transaction boundary: viem's default RPC timeout (10 s), so a run parked on a request to a hung node
 * ends within it; one that does not is left with a warning (at most the transaction it was sending then goes
 * out: it starts no other).
 */
export const RESTORE_STOP_WAIT_MS = 10_000;
