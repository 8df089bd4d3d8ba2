/**
 * The error answers of the plain-HTTP routes, made by `toWireError` from the errors those routes throw, so
 * the documented statuses, bodies and Retry-After headers are the ones the server sends.
 */

import { ServerClosingError } from '../errors/rpc-errors.ts';
import { toWireError } from '../errors/to-wire-error.ts';

export const ERROR_REF = { $ref: '#/components/schemas/Error' } as const;

/** One documented error: the example's key, what it shows, and an error the route throws for it. */
export interface ErrorExample {
  key: string;
  summary: string;
  error: unknown;
}

/** Every route on the API listener answers this while the server shuts down (the onRequest hook). */
export const CLOSING: ErrorExample = {
  key: 'closing',
  summary: 'the server is shutting down: retry on a new connection',
  error: new ServerClosingError(),
};

const RETRY_AFTER = {
  description: 'seconds to wait before sending the request again',
  schema: { type: 'integer', minimum: 0 },
};

interface StatusEntry {
  names: Set<string>;
  retryAfter: boolean;
  examples: Record<string, { summary: string; value: unknown }>;
}

/** The responses object's error members, one per HTTP status, each with the webrpc bodies as examples. */
export function errorResponses(examples: readonly ErrorExample[]): Record<string, unknown> {
  const byStatus = new Map<number, StatusEntry>();
  for (const { key, summary, error } of examples) {
    // Only a body-size refusal reads the limit, and these routes take no body.
    const wire = toWireError(error, 0);
    const entry = byStatus.get(wire.httpStatus) ?? { names: new Set(), retryAfter: false, examples: {} };
    entry.names.add(wire.body.error);
    entry.retryAfter ||= 'retry-after' in wire.headers;
    entry.examples[key] = { summary, value: wire.body };
    byStatus.set(wire.httpStatus, entry);
  }
  const sorted = [...byStatus].sort(([a], [b]) => a - b);
  return Object.fromEntries(
    sorted.map(([status, entry]) => [
      String(status),
      {
        description: `webrpc error: ${[...entry.names].join(' or ')}`,
        ...(entry.retryAfter && { headers: { 'Retry-After': RETRY_AFTER } }),
        content: { 'application/json': { schema: ERROR_REF, examples: entry.examples } },
      },
    ]),
  );
}
