/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (its `clientError` event): a head
 * over `http.maxHeaderSize` (431), a malformed request line, header or body framing (400), a request not
 * received within Node's timeouts (408). Node and Fastify would answer these with their own bodies and no
 * CORS header; here they get the webrpc error body every other failure has, with CORS, and the connection
 * is closed (the parser cannot continue on it).
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type CorsOptions, corsHeadersFor } from './cors.ts';
import {
  MalformedHttpRequestError,
  RequestHeadersTooLargeError,
  RequestNotReceivedError,
  type RpcError,
} from './errors/rpc-errors.ts';
import { toWireError } from './errors/to-wire-error.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/** What Node hands the `clientError` listener: the parser's error, with the bytes it was reading. */
export interface ClientError extends Error {
  code?: string;
  /** The packet the parser failed on, a Buffer (absent for timeouts and resets). */
  rawPacket?: unknown;
}

export type ClientErrorHandler = (error: ClientError, socket: Duplex) => void;

const PARSE_ERROR_PREFIX = /^Parse Error:\s*/;
/** An `Origin` header line in a raw request head. */
const ORIGIN_LINE = /\r\norigin:[ \t]*([^\r\n]*)/i;

export function createClientErrorHandler(options: {
  cors: CorsOptions;
  bodyLimitBytes: number;
  /** The answer's X-Request-Id. */
  requestId: () => string;
}): ClientErrorHandler {
  return (error, socket) => {
    const rpcError = rpcErrorOf(error);
    // A reset connection has no one to answer; nor does one whose response has already begun (Node's rule:
    // writing now would corrupt the answer the client is reading).
    if (!rpcError || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const wire = toWireError(rpcError, options.bodyLimitBytes);
    const body = JSON.stringify(wire.body);
    const headers: Record<string, string> = {
      ...corsHeadersFor(options.cors, originOf(error.rawPacket)),
      ...wire.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      [REQUEST_ID_HEADER]: options.requestId(),
      connection: 'close',
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const head = `HTTP/1.1 ${wire.httpStatus} ${STATUS_CODES[wire.httpStatus] ?? ''}\r\n${lines.join('')}\r\n`;
    socket.end(head + body, () => socket.destroy());
  };
}

function rpcErrorOf(error: ClientError): RpcError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return new RequestHeadersTooLargeError(maxHeaderSize);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestNotReceivedError();
    default:
      return new MalformedHttpRequestError(error.message.replace(PARSE_ERROR_PREFIX, ''), error.code);
  }
}

/** The response of a request on this connection has started (`_httpMessage` is Node's own link to it). */
function responseStarted(socket: Duplex): boolean {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return inFlight?.headersSent === true;
}

/**
 * The request's Origin, read from the raw head the parser failed on, so an allowed origin's browser can
 * read the error. Only ever echoed when it is one of the allowed origins (corsHeadersFor decides).
 */
function originOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const head = rawPacket.toString('latin1');
  const end = head.indexOf('\r\n\r\n');
  return ORIGIN_LINE.exec(end === -1 ? head : head.slice(0, end))?.[1]?.trim();
}
