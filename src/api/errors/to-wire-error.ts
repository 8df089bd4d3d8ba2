/**
 * The one place where anything thrown while answering a request becomes the webrpc error body
 * `{ error, code, msg, message, cause?, status }` (webrpc's members plus `message`, which is what the
 * TypeScript client reads). Store and chain conditions a caller can meet become the webrpc error that
 * says what to do (a bad page member names it; an outage says when to retry); unknown errors become
 * WebrpcInternalError without their stack.
 */
import { BaseError as ViemError } from 'viem';
import { ChainUnavailableError } from '../../chains/errors.ts';
import { mapChainError } from '../../chains/map-chain-error.ts';
import {
  NothingToRecoverError,
  RecoveryInputError,
  RecoveryIntentNotFoundError,
  RecoveryStatusError,
  RetryWindowClosedError,
} from '../../intents/recovery/errors.ts';
import { DatabaseUnavailableError, InvalidPageError } from '../../store/errors.ts';
import {
  ChainUnavailableRpcError,
  DatabaseUnavailableRpcError,
  IntentStatusError,
  InvalidArgumentError,
  MalformedRequestError,
  NotFoundError,
  QuoteExpiredError,
  RequestTooLargeError,
  RpcError,
} from './rpc-errors.ts';
import { RPC_ERRORS } from './table.ts';

export interface WireError {
  httpStatus: number;
  headers: Record<string, string>;
  body: { error: string; code: number; msg: string; message: string; cause?: string; status: number };
  /** True when the error was not foreseen (a bug or an outage): log it. */
  unexpected: boolean;
}

const FASTIFY_CLIENT_ERROR_MIN = 400;
const FASTIFY_CLIENT_ERROR_MAX = 499;

export function toWireError(error: unknown, bodyLimitBytes: number): WireError {
  const rpcError = error instanceof RpcError ? error : fromKnownError(error, bodyLimitBytes);
  if (!rpcError) return internal();
  const spec = RPC_ERRORS[rpcError.rpc];
  const status = rpcError.httpStatus ?? spec.status;
  const body: WireError['body'] = {
    error: spec.name,
    code: spec.code,
    msg: rpcError.message,
    message: rpcError.message,
    status,
  };
  if (rpcError.causeText !== undefined) body.cause = rpcError.causeText;
  return { httpStatus: status, headers: rpcError.headers, body, unexpected: false };
}

/** Store and chain conditions a caller can meet, as the webrpc errors that tell them what to do. */
function fromKnownError(error: unknown, bodyLimitBytes: number): RpcError | undefined {
  if (error instanceof DatabaseUnavailableError) return new DatabaseUnavailableRpcError(error);
  if (error instanceof InvalidPageError)
    return new InvalidArgumentError(`page.${error.field}`, error.problem);
  const recovery = fromRecoveryError(error);
  if (recovery) return recovery;
  // A chain call not wrapped where it was made still reaches here as viem's error: the same outage.
  const chainError = error instanceof ViemError ? mapChainError(error) : error;
  if (chainError instanceof ChainUnavailableError) {
    const chainId = chainError.details.chainId;
    return new ChainUnavailableRpcError(typeof chainId === 'number' ? chainId : undefined, chainError);
  }
  return fromFrameworkError(error, bodyLimitBytes);
}

/** The recovery services' refusals (src/intents/recovery/errors.ts). */
function fromRecoveryError(error: unknown): RpcError | undefined {
  if (error instanceof RecoveryInputError) return new InvalidArgumentError(error.field, error.problem);
  if (error instanceof RecoveryIntentNotFoundError || error instanceof NothingToRecoverError) {
    return new NotFoundError(error.message, { details: error.details });
  }
  if (error instanceof RecoveryStatusError) return new IntentStatusError(error.message, error.status);
  if (error instanceof RetryWindowClosedError)
    return new QuoteExpiredError(error.message, { details: error.details });
  return undefined;
}

/** Fastify's own 4xx errors (body parser, size limit, media type) are malformed requests. */
function fromFrameworkError(error: unknown, bodyLimitBytes: number): RpcError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
  if (statusCode === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new RequestTooLargeError(bodyLimitBytes);
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP')) {
    return new MalformedRequestError(`malformed request body (${code})`);
  }
  if (
    typeof statusCode === 'number' &&
    statusCode >= FASTIFY_CLIENT_ERROR_MIN &&
    statusCode <= FASTIFY_CLIENT_ERROR_MAX
  ) {
    return new MalformedRequestError('malformed request');
  }
  return undefined;
}

function internal(): WireError {
  const spec = RPC_ERRORS.WebrpcInternalError;
  const text = 'internal error; the server has logged it';
  return {
    httpStatus: spec.status,
    headers: {},
    body: { error: spec.name, code: spec.code, msg: text, message: text, status: spec.status },
    unexpected: true,
  };
}
