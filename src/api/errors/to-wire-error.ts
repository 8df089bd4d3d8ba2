/**
 * The one place where anything thrown while answering a request becomes the webrpc error body
 * `{ error, code, msg, message, cause?, status }` (webrpc's members plus `message`, which is what the
 * TypeScript client reads). The API's own refusals are RpcErrors that name their webrpc error; every
 * condition of the domain, the store and the chains a caller can meet is a row of DOMAIN_ERROR_TABLE, keyed
 * by its class (docs/errors.md lists the rows; test/api/errors.test.ts keeps the two equal). Unknown errors
 * become WebrpcInternalError without their stack.
 */
import { BaseError as ViemError } from 'viem';
import { ChainUnavailableError } from '../../chains/errors.ts';
import { mapChainError } from '../../chains/map-chain-error.ts';
import {
  ExecuteWindowClosedError,
  IntentNotFoundError,
  QuoteExpiredError,
  WrongStatusError,
} from '../../intents/errors.ts';
import { GasAboveCapError } from '../../intents/plan/errors.ts';
import { NothingToRecoverError, RetryWindowClosedError } from '../../intents/recovery/errors.ts';
import { ChainNotSupportedError, InvalidInputError } from '../../internal/errors.ts';
import { InsufficientInventoryError } from '../../providers/errors.ts';
import { DatabaseUnavailableError, InvalidPageError } from '../../store/errors.ts';
import { MarketNotFoundError, ProviderNotFoundError } from '../../yield/errors.ts';
import { MalformedRequestError, RequestTooLargeError, RpcError } from './rpc-errors.ts';
import { RPC_ERRORS, type RpcErrorName } from './table.ts';

export interface WireError {
  httpStatus: number;
  headers: Record<string, string>;
  body: { error: string; code: number; msg: string; message: string; cause?: string; status: number };
  /** True when the error was not foreseen (a bug or an outage): log it. */
  unexpected: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: any constructor signature; only the prototype is read.
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

/** How one class of error goes on the wire. */
export interface DomainErrorRow {
  type: ErrorClass<Error>;
  rpc: RpcErrorName;
  /** The body's `cause`, when there is something machine-readable to add. */
  cause?(error: Error): string;
  /** The text instead of the error's own message (an outage's driver text stays in the log). */
  message?(error: Error): string;
  /** Instead of the webrpc table's status (503 for an outage the caller should retry). */
  httpStatus?: number;
  headers?: Record<string, string>;
}

function row<E extends Error>(
  type: ErrorClass<E>,
  rpc: RpcErrorName,
  options: Omit<DomainErrorRow, 'type' | 'rpc' | 'cause' | 'message'> & {
    cause?(error: E): string;
    message?(error: E): string;
  } = {},
): DomainErrorRow {
  return { type, rpc, ...(options as Omit<DomainErrorRow, 'type' | 'rpc'>) };
}

/** Retry-After during a database or chain outage (s): a restart or a node's hiccup takes seconds. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;
const OUTAGE = {
  httpStatus: 503,
  headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
} as const;

/**
 * Every domain condition a caller can meet and its webrpc error. A subclass without a row of its own takes
 * its nearest ancestor's (IntentChangedError and the deposit refusals are InvalidInputErrors).
 */
export const DOMAIN_ERROR_TABLE: readonly DomainErrorRow[] = [
  row(InvalidInputError, 'InvalidArgument', { cause: (e) => (e.field ? `field=${e.field}` : 'body') }),
  row(InvalidPageError, 'InvalidArgument', { cause: (e) => `field=page.${e.field}` }),
  row(ChainNotSupportedError, 'UnsupportedNetwork', { cause: (e) => `field=${e.field}` }),
  row(IntentNotFoundError, 'NotFound'),
  row(MarketNotFoundError, 'NotFound'),
  row(ProviderNotFoundError, 'NotFound'),
  row(NothingToRecoverError, 'NotFound'),
  row(WrongStatusError, 'IntentStatus', { cause: (e) => `intent status=${e.status}` }),
  row(QuoteExpiredError, 'QuoteExpired'),
  row(ExecuteWindowClosedError, 'QuoteExpired'),
  row(RetryWindowClosedError, 'QuoteExpired'),
  // Capacity, not the request: the same request may succeed later or smaller.
  row(InsufficientInventoryError, 'Unavailable', {
    cause: (e) =>
      `solver inventory: chainId=${e.chainId} token=${e.token.address} available=${e.inventory.available} required=${e.required}`,
  }),
  row(GasAboveCapError, 'Unavailable', {
    cause: (e) => {
      const { chainId, gasPrice, cap } = e.details as { chainId: number; gasPrice: bigint; cap: bigint };
      return `gas above cap: chainId=${chainId} gasPrice=${gasPrice} cap=${cap}`;
    },
  }),
  // Outages: nothing is wrong with the request; the same call succeeds once the part is back.
  row(DatabaseUnavailableError, 'Unavailable', {
    ...OUTAGE,
    cause: () => 'database unavailable',
    message: () =>
      `the service is temporarily unavailable: its database cannot be reached; retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds`,
  }),
  row(ChainUnavailableError, 'Unavailable', {
    ...OUTAGE,
    cause: () => 'chain unavailable',
    message: (e) => {
      const { chainId } = e.details;
      const chain = typeof chainId === 'number' ? `chain ${chainId}` : 'a chain this request reads';
      return `the service is temporarily unavailable: ${chain} did not answer; retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds`;
    },
  }),
];

const ROW_BY_TYPE = new Map<unknown, DomainErrorRow>(DOMAIN_ERROR_TABLE.map((r) => [r.type, r]));

const FASTIFY_CLIENT_ERROR_MIN = 400;
const FASTIFY_CLIENT_ERROR_MAX = 499;

export function toWireError(error: unknown, bodyLimitBytes: number): WireError {
  if (error instanceof RpcError) {
    return wire(error.rpc, error.message, error.causeText, error.headers, error.httpStatus);
  }
  // A chain call not wrapped where it was made still reaches here as viem's error: the same outage.
  const domain = error instanceof ViemError ? mapChainError(error) : error;
  const found = rowOf(domain);
  if (found) {
    const e = domain as Error;
    const message = found.message?.(e) ?? e.message;
    return wire(found.rpc, message, found.cause?.(e), found.headers ?? {}, found.httpStatus);
  }
  const framework = fromFrameworkError(error, bodyLimitBytes);
  if (!framework) return internal();
  return wire(framework.rpc, framework.message, framework.causeText, framework.headers, framework.httpStatus);
}

/** The row of the error's class or of its nearest ancestor that has one. */
function rowOf(error: unknown): DomainErrorRow | undefined {
  if (!(error instanceof Error)) return undefined;
  for (let proto = Object.getPrototypeOf(error); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const found = ROW_BY_TYPE.get(proto.constructor);
    if (found) return found;
  }
  return undefined;
}

function wire(
  rpc: RpcErrorName,
  message: string,
  cause: string | undefined,
  headers: Record<string, string>,
  httpStatus: number | undefined,
): WireError {
  const spec = RPC_ERRORS[rpc];
  const status = httpStatus ?? spec.status;
  const body: WireError['body'] = { error: spec.name, code: spec.code, msg: message, message, status };
  if (cause !== undefined) body.cause = cause;
  return { httpStatus: status, headers, body, unexpected: false };
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
