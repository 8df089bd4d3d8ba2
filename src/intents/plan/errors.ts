/**
 * Why a quote cannot be built. The API maps UnsupportedChainError to UnsupportedNetwork (8008) and every other
 * class here to InvalidArgument (2000), with the message as the reason.
 *
 * Each reason names the request field it is about in `details.field` (the wire path: `originTokenAmount`,
 * `options.swapProvider`), and its message then starts with `<field>: `, so a caller learns what to change.
 */
import { type ErrorDetails, SwitchyardError } from '../../internal/errors.ts';
import { InsufficientInventoryError } from '../../providers/errors.ts';

export {
  InsufficientInventoryError,
  InsufficientLiquidityError,
  UnsupportedRouteError,
} from '../../providers/errors.ts';

/** The chain id is not one of the configured chains. */
export class UnsupportedChainError extends SwitchyardError {
  override readonly name = 'UnsupportedChainError';
}

/** The token is not listed on the chain. */
export class UnsupportedTokenError extends SwitchyardError {
  override readonly name = 'UnsupportedTokenError';
}

/** EXACT_OUTPUT needs a deposit above the cap the caller gave in originTokenAmount. */
export class ExceedsMaximumError extends SwitchyardError {
  override readonly name = 'ExceedsMaximumError';
}

/** The amount is missing, zero, or too small to cover the fees. */
export class InvalidAmountError extends SwitchyardError {
  override readonly name = 'InvalidAmountError';
}

/** No USD price for a token whose value the fees need. */
export class MissingPriceError extends SwitchyardError {
  override readonly name = 'MissingPriceError';
}

/** The output (or a refund) would go where nobody can take it out: the zero address, a token or service contract. */
export class BurningRecipientError extends SwitchyardError {
  override readonly name = 'BurningRecipientError';
}

/** The request field a reason is about (`details.field`), when it names one. */
export function requestFieldOf(error: SwitchyardError): string | undefined {
  const field = error.details.field;
  return typeof field === 'string' && field !== '' ? field : undefined;
}

type ReasonClass<E extends SwitchyardError> = new (
  message: string,
  options: { details?: ErrorDetails; cause?: unknown },
) => E;

/**
 * The same reason naming `field`, for reasons raised where the request is not known (a provider that cannot
 * serve an amount). A reason that already names a field is returned as it is, and so are the operator's
 * capacity limits (the solver's inventory short, gas above a chain's cap): nothing in the request is wrong.
 */
export function withRequestField<E extends SwitchyardError>(error: E, field: string): E {
  if (requestFieldOf(error) !== undefined || isCapacityLimit(error)) return error;
  const Kind = error.constructor as ReasonClass<E>;
  const named = new Kind(`${field}: ${error.message}`, {
    details: { ...error.details, field },
    cause: error.cause,
  });
  if (error.stack !== undefined) named.stack = error.stack;
  return named;
}

/** Gas on a chain of the route costs more than the operator's cap for it now (its transactions would wait). */
export class GasAboveCapError extends SwitchyardError {
  override readonly name = 'GasAboveCapError';
}

function isCapacityLimit(error: SwitchyardError): boolean {
  return error instanceof InsufficientInventoryError || error instanceof GasAboveCapError;
}
