/**
 * The one place where a database driver's failure that means "the server is not there" (or, for SQLite,
 * "the file is locked by another process past the busy timeout") becomes a DatabaseUnavailableError, so
 * the API answers it as a temporary outage and the engine retries it. SQL errors (constraints, syntax,
 * serialization) pass through unchanged: callers inspect their codes.
 */
import { DatabaseUnavailableError } from './errors.ts';

/** Socket errors of an unreachable or vanished server (Node's `code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server going away or not accepting sessions yet: 57P01 admin shutdown (restart,
 * pg_terminate_backend), 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down),
 * 53300 too many connections. Class 08 (connection exception) is matched by its prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_EXCEPTION_CLASS = '08';
/** What postgres.js throws itself when a connection ends, is closed under a query or cannot open in time. */
const DRIVER_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
/**
 * better-sqlite3's codes (SQLite's extended result codes) of a lock another connection held for longer than
 * the busy timeout: the CLI writing beside a running server, a checkpoint, a backup. Matched by prefix, so
 * SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY and SQLITE_LOCKED_SHAREDCACHE count too.
 */
const SQLITE_LOCK_CODE = /^SQLITE_(BUSY|LOCKED)(_|$)/;
/** What pg and pg-pool throw themselves when a connection ends, times out or is unusable (the listener uses pg). */
const DRIVER_MESSAGES =
  /^Connection terminated|^timeout exceeded when trying to connect|is not queryable|^Connection refused/i;

export function mapDatabaseError(error: unknown): unknown {
  return isUnavailable(error) ? new DatabaseUnavailableError(error) : error;
}

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof DatabaseUnavailableError) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || DRIVER_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (code.length === 5 && code.startsWith(CONNECTION_EXCEPTION_CLASS)) return true;
    if (SQLITE_LOCK_CODE.test(code)) return true;
  }
  // AggregateError: a host name with several addresses, each refused.
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return DRIVER_MESSAGES.test(error.message);
}

/** A driver error as a log field: its message and, when it has one, its code (SQLSTATE or the driver's). */
export function errorFields(error: unknown): { message: string; code?: string } {
  const code = (error as { code?: unknown })?.code;
  return { message: (error as Error)?.message ?? String(error), ...(typeof code === 'string' && { code }) };
}
