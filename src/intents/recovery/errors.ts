/**
 * Why recovery and RetryIntent refuse a call, each carrying what the caller needs to act on it. The API
 * maps every class here to its webrpc error in one place (src/api/errors/to-wire-error.ts): a value the
 * caller sent is InvalidArgument naming the field, an intent in the wrong status IntentStatus, an intent
 * that cannot run any more QuoteExpired, nothing to recover NotFound.
 */
import { InvalidInputError, SwitchyardError } from '../../internal/errors.ts';
import type { IntentStatus } from '../../store/types.ts';
import { IntentNotFoundError, WrongStatusError } from '../errors.ts';

/** No intent with this id in the caller's project. */
export class RecoveryIntentNotFoundError extends IntentNotFoundError {
  override readonly name = 'RecoveryIntentNotFoundError';
}

/** A request member the caller sent is wrong; `field` names it (`payload.nonce`), `problem` says why. */
export class RecoveryInputError extends InvalidInputError {
  override readonly name: string = 'RecoveryInputError';
}

/** The signature is not the intent owner's over this payload. */
export class RecoverySignatureError extends RecoveryInputError {
  override readonly name = 'RecoverySignatureError';
}

/** The named transaction does not pay this intent's origin address (or is not mined yet). */
export class RetryDepositRejectedError extends RecoveryInputError {
  override readonly name = 'RetryDepositRejectedError';
}

/** The intent's addresses hold nothing the owner may recover now; the message says what was looked at. */
export class NothingToRecoverError extends SwitchyardError {
  override readonly name = 'NothingToRecoverError';
}

/** The intent is in a status the operation does not apply to; the message says what it is and what to do. */
export class RecoveryStatusError extends WrongStatusError {
  override readonly name = 'RecoveryStatusError';
  constructor(
    message: string,
    override readonly status: IntentStatus,
  ) {
    super(message, status);
  }
}

/** A FAILED intent's origin deadline has passed: it can never run again (its deposit is returned instead). */
export class RetryWindowClosedError extends SwitchyardError {
  override readonly name = 'RetryWindowClosedError';
}
