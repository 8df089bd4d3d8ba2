/**
 * A database that is not there is a temporary condition everywhere: the store throws
 * DatabaseUnavailableError for it (and only for it), the engine retries it, the API answers it 503.
 */
import { describe, expect, it } from 'vitest';
import { toWireError } from '../api/errors/to-wire-error.ts';
import { isRetryable } from '../engine/is-retryable.ts';
import { DatabaseUnavailableError } from './errors.ts';
import { mapDatabaseError } from './map-database-error.ts';

/** What the drivers' errors and Node's socket errors look like (their `code` and message). */
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const BODY_LIMIT_BYTES = 1_048_576;

describe('mapDatabaseError', () => {
  it.each([
    [
      'a restart or pg_terminate_backend',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection failure (class 08)', withCode('connection failure', '08006')],
    ['a socket ended under a query', new Error('Connection terminated unexpectedly')],
    ['a client already broken', new Error('Client has encountered a connection error and is not queryable')],
    [
      'a pipelined connection closed under its queries',
      withCode('write CONNECTION_CLOSED 127.0.0.1:5432', 'CONNECTION_CLOSED'),
    ],
    ['a connect that timed out', withCode('write CONNECT_TIMEOUT 127.0.0.1:5432', 'CONNECT_TIMEOUT')],
  ])('%s is DatabaseUnavailableError, retryable', (_, error) => {
    const mapped = mapDatabaseError(error);
    expect(mapped).toBeInstanceOf(DatabaseUnavailableError);
    expect((mapped as Error).cause).toBe(error);
    expect(isRetryable(mapped)).toBe(true);
  });

  it('leaves SQL errors as they are: callers read their codes', () => {
    const unique = withCode('duplicate key value violates unique constraint', '23505');
    expect(mapDatabaseError(unique)).toBe(unique);
  });
});

describe('the API answer to DatabaseUnavailableError', () => {
  it('is Unavailable (2002) with HTTP 503, Retry-After and a message naming the database', () => {
    const wire = toWireError(
      mapDatabaseError(withCode('connect ECONNREFUSED', 'ECONNREFUSED')),
      BODY_LIMIT_BYTES,
    );
    expect(wire.httpStatus).toBe(503);
    expect(wire.headers).toEqual({ 'retry-after': '5' });
    expect(wire.body).toMatchObject({
      error: 'Unavailable',
      code: 2002,
      status: 503,
      cause: 'database unavailable',
    });
    expect(wire.body.message).toMatch(/temporarily unavailable: its database cannot be reached/);
    // The driver's text (host, port) stays in the server's logs.
    expect(wire.body.message).not.toMatch(/ECONNREFUSED/);
  });
});
