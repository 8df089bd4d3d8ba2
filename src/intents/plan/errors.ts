/**
 * Why a quote cannot be built. The API maps UnsupportedChainError to UnsupportedNetwork (8008) and every other
 * class here to InvalidArgument (2000), with the message as the reason.
 */
import { SwitchyardError } from '../../internal/errors.ts';

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

/** Gas on a chain of the route costs more than the operator's cap for it now (its transactions would wait). */
export class GasAboveCapError extends SwitchyardError {
  override readonly name = 'GasAboveCapError';
}
