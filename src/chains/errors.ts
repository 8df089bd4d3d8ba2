/**
 * What can go wrong talking to a chain, one class per condition. `mapChainError` turns viem and RPC
 * failures into these; `isRetryable` answers the one question the engine asks of any of them.
 */
import { SwitchyardError } from '../internal/errors.ts';

/** The RPC endpoint could not be reached, timed out, or answered 5xx / 429: try again later. */
export class ChainUnavailableError extends SwitchyardError {
  override readonly name = 'ChainUnavailableError';
}

/** A simulated call (eth_call / eth_estimateGas) reverted: sending it would revert too. */
export class SimulationRevertedError extends SwitchyardError {
  override readonly name = 'SimulationRevertedError';
  constructor(
    readonly reason: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(`the call reverts: ${reason}`, options);
  }
}

/** A transaction was mined and reverted (status 0). Its nonce is spent; retrying means a new transaction. */
export class TransactionRevertedError extends SwitchyardError {
  override readonly name = 'TransactionRevertedError';
}

/**
 * The node says the nonce is already used. Either our own stored transaction was mined (fine: look up its
 * receipt) or another transaction took the nonce (the stored one can never mine): both are resolved by
 * the sender and the step retried.
 */
export class NonceAlreadyUsedError extends SwitchyardError {
  override readonly name = 'NonceAlreadyUsedError';
}

/** A replacement at the same nonce was refused as underpriced: bump more on the next attempt. */
export class ReplacementUnderpricedError extends SwitchyardError {
  override readonly name = 'ReplacementUnderpricedError';
}

/** The sender cannot pay for gas (an operator must top it up); retried, it resumes once funded. */
export class SenderUnderfundedError extends SwitchyardError {
  override readonly name = 'SenderUnderfundedError';
}

/** A transaction is broadcast but not yet mined or not yet deep enough: the step comes back later. */
export class TransactionPendingError extends SwitchyardError {
  override readonly name = 'TransactionPendingError';
}

/** Any other node error we have no rule for (kept with its cause). */
export class ChainRpcError extends SwitchyardError {
  override readonly name = 'ChainRpcError';
}

/** No client or configuration for a chain the plan names. */
export class UnknownChainError extends SwitchyardError {
  override readonly name = 'UnknownChainError';
}

/** A condition worth waiting out (solver inventory short, a chain behind): retried with backoff. */
export class RetryLaterError extends SwitchyardError {
  override readonly name = 'RetryLaterError';
}

/**
 * The chain asks more gas fee than the operator's ceiling for it (`maxFeePerGasGwei`): nothing was signed,
 * and the send is tried again later, when the fee may have fallen.
 */
export class FeeAboveCapError extends SwitchyardError {
  override readonly name = 'FeeAboveCapError';
}

/**
 * The worker is stopping and signs nothing new (sender.stopSigning): the step is handed back to another
 * worker, which resumes whatever was journaled and signs what was not.
 */
export class SenderStoppedError extends SwitchyardError {
  override readonly name = 'SenderStoppedError';
}
