/**
 * The engine's single retry question. A step that throws a retryable error is tried again later with
 * backoff; any other error fails the step with its message as the reason.
 */

import {
  ChainRpcError,
  ChainUnavailableError,
  FeeAboveCapError,
  NonceAlreadyUsedError,
  ReplacementUnderpricedError,
  RetryLaterError,
  SenderStoppedError,
  SenderUnderfundedError,
  TransactionPendingError,
} from '../chains/errors.ts';
import { mapChainError } from '../chains/map-chain-error.ts';
import { DatabaseUnavailableError } from '../store/errors.ts';

/** Errors a later attempt can get past without anyone changing the intent. */
const RETRYABLE = [
  ChainUnavailableError,
  // The sender resolves it (its own transaction mined, or the nonce was taken) on the next attempt.
  NonceAlreadyUsedError,
  ReplacementUnderpricedError,
  // An operator tops the account up; the money must not be given up on meanwhile.
  SenderUnderfundedError,
  TransactionPendingError,
  // A node error with no rule: more likely a flaky node than a doomed intent, so it is not fatal.
  ChainRpcError,
  RetryLaterError,
  // The operator's fee ceiling holds the send back until the chain's fee falls under it.
  FeeAboveCapError,
  // The journal's own database restarting or failing over: the step runs again once it is back.
  DatabaseUnavailableError,
  // This worker is stopping: another one runs the step.
  SenderStoppedError,
];

export function isRetryable(error: unknown): boolean {
  const mapped = mapChainError(error);
  return RETRYABLE.some((kind) => mapped instanceof kind);
}
