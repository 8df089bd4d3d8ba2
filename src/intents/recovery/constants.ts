/** Tuning numbers of recovery and RetryIntent. */

/**
 * How long a prepared recovery signature stays valid (chain seconds): long enough to read the typed data in a
 * wallet and sign, short enough that a signature found later has expired.
 */
export const RECOVERY_SIGNATURE_TTL_SECONDS = 3_600n;

/**
 * Gas the relayer budgets for a recovery it sends: the heaviest measured one (clone deployment and one token
 * sent, 164,030 in test/contracts/gas-snapshot.json) plus a quarter for a token with a costlier transfer.
 */
export const RECOVERY_GAS = 205_000n;

/**
 * The relayer's fee is this many times the gas cost at the current fee: room for the fee to rise between the
 * signature and the send (EIP-1559 lets the base fee grow 12.5% a block).
 */
export const RELAY_FEE_MARGIN_NUMERATOR = 3n;
export const RELAY_FEE_MARGIN_DENOMINATOR = 2n;
