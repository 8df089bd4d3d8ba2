/**
 * Why a quote could not be built, in the API's terms: an unknown chain is UnsupportedNetwork (8008); a
 * limit of the operator's capacity (the solver's inventory short, gas above the chain's cap) is Unavailable
 * (2002), since nothing in the request is wrong and it may succeed later or smaller; every other reason of
 * the plan builder or a provider is InvalidArgument (2000) whose message is the reason (the official
 * client's UI matches on it, e.g. "exceeds user-specified maximum"). Anything else (an RPC outage, a bug)
 * passes through unchanged.
 */
import {
  CapacityUnavailableError,
  InvalidArgumentError,
  UnsupportedNetworkError,
} from '../../api/errors/rpc-errors.ts';
import {
  ExceedsMaximumError,
  GasAboveCapError,
  InsufficientInventoryError,
  InsufficientLiquidityError,
  InvalidAmountError,
  MissingPriceError,
  UnsupportedChainError,
  UnsupportedRouteError,
  UnsupportedTokenError,
} from '../plan/errors.ts';

const REASONS = [
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
  if (REASONS.some((kind) => error instanceof kind)) {
    // The builder's messages already name the field ("originTokenAddress: token … is not listed").
    return new InvalidArgumentError('', (error as Error).message);
  }
  return error;
}
