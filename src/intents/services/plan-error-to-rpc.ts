/**
 * Why a quote could not be built, in the API's terms: an unknown chain is UnsupportedNetwork (8008), every
 * other reason of the plan builder or a provider is InvalidArgument (2000) whose message is the reason
 * (the official client's UI matches on it, e.g. "exceeds user-specified maximum"). Anything else (an RPC
 * outage, a bug) passes through unchanged.
 */
import { InvalidArgumentError, UnsupportedNetworkError } from '../../api/errors/rpc-errors.ts';
import {
  ExceedsMaximumError,
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
