/** Conditions the engine fails a step for (not retryable unless said otherwise). */
import { SwitchyardError } from '../internal/errors.ts';

export class IntentNotFoundError extends SwitchyardError {
  override readonly name = 'IntentNotFoundError';
}

/** The intent row carries no execution plan, so there is nothing the engine could execute. */
export class PlanMissingError extends SwitchyardError {
  override readonly name = 'PlanMissingError';
}

/** The intent's deadline passed before the engine could act (refunds are a separate path). */
export class DeadlinePassedError extends SwitchyardError {
  override readonly name = 'DeadlinePassedError';
}

/** The owner cancelled the account on-chain (AbortIntent); the engine stops here. */
export class AccountCancelledError extends SwitchyardError {
  override readonly name = 'AccountCancelledError';
}

/** A mined transaction reverted, or did not emit the event it must emit. */
export class UnexpectedOutcomeError extends SwitchyardError {
  override readonly name = 'UnexpectedOutcomeError';
}

/** The attester found no Filled event matching the order (it signs only fills it has read). */
export class FillNotFoundError extends SwitchyardError {
  override readonly name = 'FillNotFoundError';
}

/**
 * The transaction named as an intent's deposit is mined and paid the intent address nothing of the deposit
 * token (another intent's deposit, another project's, a reverted one): it is not recorded.
 */
export class ForeignDepositTransactionError extends SwitchyardError {
  override readonly name = 'ForeignDepositTransactionError';
}
