/**
 * Why a quote could not be built, in the API's terms: an unknown chain is UnsupportedNetwork (8008), every
 * other reason of the plan builder or a provider is InvalidArgument (2000) naming the request field the
 * reason is about, with the reason as the message (the official client's UI matches on it, e.g. "exceeds
 * user-specified maximum"). Anything else (an RPC outage, a bug) passes through unchanged.
 */
import { InvalidArgumentError, UnsupportedNetworkError } from '../../api/errors/rpc-errors.ts';
import type { SwitchyardError } from '../../internal/errors.ts';
import {
  BurningRecipientError,
  ExceedsMaximumError,
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

export function planErrorToRpc(error: unknown): unknown {
  if (error instanceof UnsupportedChainError) {
    const { field, chainId } = error.details as { field?: unknown; chainId?: unknown };
    if (typeof chainId === 'number') {
      return new UnsupportedNetworkError(typeof field === 'string' ? field : 'chainId', chainId);
    }
    return new InvalidArgumentError('', error.message);
  }
  if (!REASONS.some((kind) => error instanceof kind)) return error;
  const { message } = error as SwitchyardError;
  const field = requestFieldOf(error as SwitchyardError) ?? '';
  // The builder's messages start with the field they name; InvalidArgumentError puts it back in front.
  const problem = field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return new InvalidArgumentError(field, problem);
}
