/**
/**
 * Why a quote could not be built, as a refusal of what the caller asked: an unknown chain is
 * ChainNotSupportedError; a limit of the operator's capacity (InsufficientInventoryError, the solver's
 * inventory short; GasAboveCapError, gas above the chain's cap) passes as it is, since nothing in the
 * request is wrong and it may succeed later or smaller; every other reason of the plan builder or a
 * provider is an InvalidInputError naming the request field the reason is about, with the reason as the
 * message (the official client's UI matches on it, e.g. "exceeds user-specified maximum"). Anything else
 * (an RPC outage, a bug) passes through unchanged.
 */
import { ChainNotSupportedError, InvalidInputError, type SwitchyardError } from '../../internal/errors.ts';
import {
  BurningRecipientError,
  ExceedsMaximumError,
  GasAboveCapError,
  InsufficientInventoryError,
  InsufficientLiquidityError,
  InvalidAmountError,
  MissingPriceError,
  requestFieldOf,
  UnsupportedChainError,
  UnsupportedRouteError,
  UnsupportedTokenError,
} from '../plan/errors.ts';

const REASONS = [
  BurningRecipientError,
  ExceedsMaximumError,
  InsufficientLiquidityError,
  InvalidAmountError,
  MissingPriceError,
  UnsupportedRouteError,
  UnsupportedTokenError,
];

export function refusalOfPlan(error: unknown): unknown {
  // Before the reasons: InsufficientInventoryError is an InsufficientLiquidityError too.
  if (error instanceof InsufficientInventoryError || error instanceof GasAboveCapError) return error;
  if (error instanceof UnsupportedChainError) {
    const { field, chainId } = error.details as { field?: unknown; chainId?: unknown };
    if (typeof chainId === 'number') {
      return new ChainNotSupportedError(typeof field === 'string' ? field : 'chainId', chainId);
    }
    return new InvalidInputError('', error.message);
  }
  if (!REASONS.some((kind) => error instanceof kind)) return error;
  const { message } = error as SwitchyardError;
  const field = requestFieldOf(error as SwitchyardError) ?? '';
  // The builder's messages start with the field they name; InvalidInputError puts it back in front.
  const problem = field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return new InvalidInputError(field, problem);
}
