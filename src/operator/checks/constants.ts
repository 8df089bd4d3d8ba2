/** Tuning numbers of the operator checks, each with its unit and the reason for its value. */
import { EXECUTE_BASE_GAS, TRANSFER_GAS } from '../../intents/plan/constants.ts';
import { FILL_GAS, LOCK_GAS, SETTLE_GAS } from '../../providers/gas.ts';

/**
 * Gas the relayer spends on one chain per intent, counted for the dearer side: an intent leaving the chain
 * (origin execution with the lock, then settlement), as the quote's own gas figures add them up.
 */
export const RELAYER_GAS_PER_INTENT = EXECUTE_BASE_GAS + TRANSFER_GAS + LOCK_GAS + SETTLE_GAS;
/** Gas the solver spends per fill (its approve happens once per token and is left out). */
export const SOLVER_GAS_PER_FILL = FILL_GAS;
/** Fewer intents (or fills) than this left in gas is a warning: at modest traffic a day's worth, time to top up. */
export const LOW_GAS_INTENTS = 100n;
/**
 * How long (ms) the head of a chain that does not mine on demand may stand still before the RPC counts as
 * stuck: more than two of Ethereum's 12-second slots, the slowest block time among the supported chains.
 */
export const HEAD_ADVANCE_WAIT_MS = 30_000;
/** How often (ms) the head is read while waiting for it to move: a fraction of the fastest block times. */
export const HEAD_POLL_MS = 250;
/** An RPC request of a check that has not answered in this long (ms) fails the check. */
export const CHECK_RPC_TIMEOUT_MS = 10_000;
