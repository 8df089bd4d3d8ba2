/**
 * The API's own refusals (the request as HTTP and as a webrpc call: its route, body, schema, access key
 * and rate), one SwitchyardError subclass per condition, each naming its webrpc table entry. The
 * domain's conditions are its own classes, mapped by DOMAIN_ERROR_TABLE; `toWireError` (the one boundary
 * converter) turns both into the JSON error body.
 */
import { type ErrorDetails, SwitchyardError } from '../../internal/errors.ts';
import type { RpcErrorName } from './table.ts';

export abstract class RpcError extends SwitchyardError {
  abstract readonly rpc: RpcErrorName;
  /** Extra response headers (Retry-After). */
  readonly headers: Record<string, string> = {};
  /** Overrides the table's HTTP status (413 for an oversize body). */
  readonly httpStatus: number | undefined = undefined;
  /** Text for the body's `cause` member; absent when there is nothing beyond the message. */
  readonly causeText: string | undefined = undefined;

  constructor(message: string, options: { details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, options);
  }
}

/** A request field is malformed, missing or out of range. `field` is its dotted path. */
export class InvalidArgumentError extends RpcError {
  override readonly name = 'InvalidArgumentError';
  readonly rpc = 'InvalidArgument' as const;
  override readonly causeText: string;
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(field ? `${field}: ${problem}` : problem, { details: { field } });
    this.causeText = field ? `field=${field}` : 'body';
  }
}

export class MissingAccessKeyError extends RpcError {
  override readonly name = 'MissingAccessKeyError';
  readonly rpc = 'Unauthorized' as const;
  constructor(method: string) {
    super(`${method} needs an access key: send it in the X-Access-Key header`, { details: { method } });
  }
}

export class AccessKeyNotFoundError extends RpcError {
  override readonly name = 'AccessKeyNotFoundError';
  readonly rpc = 'AccessKeyNotFound' as const;
  constructor() {
    super('access key not found: it is unknown or has been revoked');
  }
}

export class PermissionDeniedError extends RpcError {
  override readonly name = 'PermissionDeniedError';
  readonly rpc = 'PermissionDenied' as const;
}

export class RateLimitedError extends RpcError {
  override readonly name = 'RateLimitedError';
  readonly rpc = 'RateLimited' as const;
  override readonly headers: Record<string, string>;
  constructor(
    readonly retryAfterSeconds: number,
    limitPerSecond: number,
  ) {
    super(`rate limit exceeded (${limitPerSecond} requests per second for this access key); slow down`, {
      details: { retryAfterSeconds, limitPerSecond },
    });
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

/**
 * Too many unknown or revoked access keys from the caller's address: refused before the key is hashed and
 * looked up, until the address's allowance refills (Retry-After).
 */
export class FailedAuthLimitedError extends RpcError {
  override readonly name = 'FailedAuthLimitedError';
  readonly rpc = 'RateLimited' as const;
  override readonly headers: Record<string, string>;
  constructor(
    readonly retryAfterSeconds: number,
    limit: { perSecond: number; burst: number },
  ) {
    super(
      `too many unknown or revoked access keys from this address (${limit.burst} in a row, then ${limit.perSecond} per second); retry in ${retryAfterSeconds} s`,
      { details: { retryAfterSeconds, ...limit } },
    );
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

export class NotFoundError extends RpcError {
  override readonly name = 'NotFoundError';
  readonly rpc = 'NotFound' as const;
}

/** The method exists but the service behind it is not configured on this server (yet). */
export class MethodUnavailableError extends RpcError {
  override readonly name = 'MethodUnavailableError';
  readonly rpc = 'Unavailable' as const;
  constructor(readonly method: string) {
    super(`${method} is not available on this server yet`, { details: { method } });
  }
}

export class UnknownMethodError extends RpcError {
  override readonly name = 'UnknownMethodError';
  readonly rpc = 'WebrpcBadRoute' as const;
  constructor(method: string, url: string) {
    super(`unknown method ${method} ${url}: use POST /rpc/Trails/<Method> or /rpc/Service/<Method>`, {
      details: { method, url },
    });
  }
}

export class MethodNotAllowedError extends RpcError {
  override readonly name = 'MethodNotAllowedError';
  readonly rpc = 'WebrpcBadMethod' as const;
  override readonly headers = { allow: 'POST, OPTIONS' };
  constructor(method: string) {
    super(`HTTP method ${method} is not allowed: RPC methods are called with POST`, { details: { method } });
  }
}

export class MalformedRequestError extends RpcError {
  override readonly name = 'MalformedRequestError';
  readonly rpc = 'WebrpcBadRequest' as const;
}

export class RequestTooLargeError extends RpcError {
  override readonly name = 'RequestTooLargeError';
  readonly rpc = 'WebrpcBadRequest' as const;
  override readonly httpStatus = 413;
  constructor(limitBytes: number) {
    super(`request body exceeds the ${limitBytes}-byte limit`, { details: { limitBytes } });
  }
}

/**
 * The request's head (request line and headers) is larger than Node's limit (`http.maxHeaderSize`,
 * 16 KiB unless `--max-http-header-size` says otherwise): HTTP 431, as Node itself would answer.
 */
export class RequestHeadersTooLargeError extends RpcError {
  override readonly name = 'RequestHeadersTooLargeError';
  readonly rpc = 'WebrpcBadRequest' as const;
  override readonly httpStatus = 431;
  constructor(limitBytes: number) {
    super(`request headers exceed the ${limitBytes}-byte limit`, { details: { limitBytes } });
  }
}

/**
 * The bytes are not an HTTP request Node can parse (request line, header syntax, message framing), or
 * one HTTP/1.1 forbids (no Host header), or its URL does not decode. `reason` says which.
 */
export class MalformedHttpRequestError extends RpcError {
  override readonly name = 'MalformedHttpRequestError';
  readonly rpc = 'WebrpcBadRequest' as const;
  constructor(reason: string, code?: string) {
    super(`malformed HTTP request: ${reason}`, { details: { ...(code && { code }) } });
  }
}

/** An `Expect` header other than `100-continue`: HTTP 417, as Node itself would answer. */
export class ExpectationFailedError extends RpcError {
  override readonly name = 'ExpectationFailedError';
  readonly rpc = 'WebrpcBadRequest' as const;
  override readonly httpStatus = 417;
  constructor(expect: string) {
    super(`Expect: ${expect} is not supported (only 100-continue is)`, { details: { expect } });
  }
}

/** The client did not send its whole request within Node's request or headers timeout. */
export class RequestNotReceivedError extends RpcError {
  override readonly name = 'RequestNotReceivedError';
  readonly rpc = 'Timeout' as const;
  constructor() {
    super('the request was not received in time; send it again');
  }
}

/** How long a client should wait before retrying on another connection while a server shuts down (s). */
const CLOSING_RETRY_AFTER_SECONDS = 1;

/**
 * A request arrived on a kept-alive connection while the server is shutting down: 503 with Retry-After,
 * so the client sends it again on a new connection (to another process behind a load balancer).
 */
export class ServerClosingError extends RpcError {
  override readonly name = 'ServerClosingError';
  readonly rpc = 'Unavailable' as const;
  override readonly httpStatus = 503;
  override readonly headers = { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS) };
  constructor() {
    super('the server is shutting down; send the request again on a new connection');
  }
}

export class RequestTimeoutError extends RpcError {
  override readonly name = 'RequestTimeoutError';
  readonly rpc = 'Timeout' as const;
}
