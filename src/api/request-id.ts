/**
 * Request ids: each request gets one, sent back as `X-Request-Id` and written into every log line the
 * server writes about it. An id a proxy or client already sent (`X-Request-Id`, a short token) is kept, so
 * one id follows a request through the proxy's logs and ours; otherwise the server makes one: a random
 * prefix per server (ids stay unique across processes and restarts) and a counter, which costs no
 * randomness per request.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** An incoming id is kept only if it is a short token: nothing odd reaches a log line or a header. */
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Random bytes of a server's id prefix: 2^32 prefixes make two servers sharing one unlikely. */
const PREFIX_BYTES = 4;

export const REQUEST_ID_HEADER = 'x-request-id';

export interface RequestIds {
  /** The request's id: the one it carries if acceptable, else a new one. */
  of(request: IncomingMessage): string;
  /** A new id, for an answer to bytes that never became a request (a malformed head). */
  fresh(): string;
}

export function createRequestIds(): RequestIds {
  const prefix = randomBytes(PREFIX_BYTES).toString('hex');
  let next = 0;
  const fresh = () => {
    next += 1;
    return `${prefix}-${next.toString(36)}`;
  };
  return {
    of(request) {
      const given = request.headers[REQUEST_ID_HEADER];
      return typeof given === 'string' && INCOMING_REQUEST_ID.test(given) ? given : fresh();
    },
    fresh,
  };
}
