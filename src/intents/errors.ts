/**
 * Why the intent services refuse a call, each carrying what the caller needs to act on it. The API maps
 * every class here to its webrpc error in one table (src/api/errors/to-wire-error.ts); refusals of a value
 * the caller sent are `InvalidInputError`s naming the field (src/internal/errors.ts).
 */
import { InvalidInputError, SwitchyardError } from '../internal/errors.ts';
import type { IntentStatus } from '../store/types.ts';

/** No intent with this id in the caller's project (never quoted, deleted, or another project's). */
export class IntentNotFoundError extends SwitchyardError {
  override readonly name: string = 'IntentNotFoundError';
  constructor(
    readonly intentId: string,
    hint?: string,
  ) {
    super(`intent ${intentId} not found${hint ? `: ${hint}` : ''}`, { details: { intentId } });
  }
}

/**
 * The intent is in a status that does not allow the operation; the message says what it is and why.
 * `status` is undefined only when the intent disappeared during the call.
 */
export class WrongStatusError extends SwitchyardError {
  override readonly name: string = 'WrongStatusError';
  constructor(
    message: string,
    readonly status: IntentStatus | undefined,
  ) {
    super(message, { details: { status } });
  }
}

/** The quote's validity ended before it was committed: a new quote is needed. */
export class QuoteExpiredError extends SwitchyardError {
  override readonly name = 'QuoteExpiredError';
  constructor(
    readonly expiresAt: Date,
    now: Date,
  ) {
    super(`the quote expired at ${expiresAt.toISOString()}; request a new quote`, {
      details: { expiresAt: expiresAt.toISOString(), now: now.toISOString() },
    });
  }
}

/** A committed intent's execute window closed before ExecuteIntent: a new quote and commit are needed. */
export class ExecuteWindowClosedError extends SwitchyardError {
  override readonly name = 'ExecuteWindowClosedError';
  constructor(
    readonly intentId: string,
    readonly closedAt: Date,
    now: Date,
  ) {
    super(
      `the execute window of intent ${intentId} closed at ${closedAt.toISOString()}; request a new quote and commit it`,
      { details: { executeDeadline: closedAt.toISOString(), now: now.toISOString() } },
    );
  }
}

/** The committed intent differs from the quoted one at `field` (`intent.<path>`); it stays QUOTED. */
export class IntentChangedError extends InvalidInputError {
  override readonly name = 'IntentChangedError';
  constructor(field: string) {
    super(field, 'differs from the quoted intent; commit the intent exactly as QuoteIntent returned it');
  }
}

/** The named deposit transaction is mined and paid the intent address nothing: not this intent's deposit. */
export class DepositTransactionRejectedError extends InvalidInputError {
  override readonly name = 'DepositTransactionRejectedError';
}

/** The engine refused a gasless deposit signature; the message says why. */
export class DepositSignatureRejectedError extends InvalidInputError {
  override readonly name = 'DepositSignatureRejectedError';
}
