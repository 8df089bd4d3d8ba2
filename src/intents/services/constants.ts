/** Tuning numbers of the intent services, each with its unit and the reason for its value. */

/** Milliseconds a committed intent has to be executed (seed spec and DESIGN §3: 10 minutes). */
export const EXECUTE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Milliseconds WaitIntentReceipt holds a call before answering `done: false`. The official client's comment
 * says the server blocks "up to 28 seconds"; 25 s stays under that and under common 30 s proxy timeouts.
 */
export const WAIT_HOLD_MS = 25_000;

/** behaviorOnError of the wire calls: origin calls revert together, a failing destination call aborts (refund). */
export const ORIGIN_BEHAVIOR_ON_ERROR = 1;
export const DESTINATION_BEHAVIOR_ON_ERROR = 2;

/** Precondition types (DESIGN §3). */
export const ERC20_BALANCE = 'erc20-balance';
export const NATIVE_BALANCE = 'native-balance';
