/**
 * Why a quote could not be built, in the API's terms: an unknown chain is UnsupportedNetwork (8008); a
 * limit of the operator's capacity (the solver's inventory short, gas above the chain's cap) is Unavailable
 * (2002), since nothing in the request is wrong and it may succeed later or smaller; every other reason of
 * the plan builder or a provider is InvalidArgument (2000) naming the request field the reason is about,
 * with the reason as the message (the official client's UI matches on it, e.g. "exceeds user-specified
 * maximum"). Anything else (an RPC outage, a bug) passes through unchanged.
 */
import {
  CapacityUnavailableError,
  InvalidArgumentError,
  UnsupportedNetworkError,
} from '../../api/errors/rpc-errors.ts';
import type { SwitchyardError } from '../../internal/errors.ts';
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

export function planErrorToRpc(error: unknown): unknown {
  if (error instanceof InsufficientInventoryError) {
    const { chainId, token, inventory, required } = error;
    return new CapacityUnavailableError(
      error.message,
      `solver inventory: chainId=${chainId} token=${token.address} available=${inventory.available} required=${required}`,
      error.details,
    );
  }
  if (error instanceof GasAboveCapError) {
    const { chainId, gasPrice, cap } = error.details as { chainId: number; gasPrice: bigint; cap: bigint };
    return new CapacityUnavailableError(
      error.message,
      `gas above cap: chainId=${chainId} gasPrice=${gasPrice} cap=${cap}`,
      { chainId, gasPrice: String(gasPrice), cap: String(cap) },
    );
  }
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
