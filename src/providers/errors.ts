/** Errors a provider raises while quoting; the API maps each to InvalidArgument (2000) with this message. */
import { SwitchyardError } from '../internal/errors.ts';

/** No provider connects the two tokens (no pool path, no bridgeable token, a provider that is not built in). */
export class UnsupportedRouteError extends SwitchyardError {
  override readonly name = 'UnsupportedRouteError';
}

/** The pools or the solver's inventory cannot serve the amount. */
export class InsufficientLiquidityError extends SwitchyardError {
  override readonly name = 'InsufficientLiquidityError';
}
