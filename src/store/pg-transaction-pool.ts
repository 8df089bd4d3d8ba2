/**
 * The `pg` pool that runs the store's transactions (open-postgres.ts runs every other statement through
 * postgres.js). A transaction's connection is checked out from BEGIN to COMMIT; pg reports a connection
 * lost under it to its queries, which postgres.js's reserved connections do not. Queries with parameters
 * run as named prepared statements (parsed once per connection), and BIGINT columns (millisecond
 * timestamps, nonces) are read as numbers; NUMERIC amounts stay strings and become bigint in the row mappers.
 *
 * A connection the server ends (a restart, a failover, pg_terminate_backend) is logged and dropped,
 * never left as an unhandled 'error' event (which would end the process); a query or connect that
 * fails because the server is not there throws DatabaseUnavailableError (map-database-error.ts).
 */
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, PostgresDriver } from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { Logger } from '../internal/logger.ts';
import { errorFields, mapDatabaseError } from './map-database-error.ts';

/**
 * Transactions open at once per process: they are off the hot path (webhook deliveries, quote expiry,
 * migrations); more wait for a connection. Idle ones close after pg-pool's 10 s.
 */
export const TRANSACTION_POOL_MAX_CONNECTIONS = 2;
/** The pool's `application_name` in pg_stat_activity. */
export const TRANSACTIONS_APPLICATION_NAME = 'switchyard transactions';
/** BIGINT's type oid: its values are read as numbers. */
export const INT8_OID = 20;
/** Distinct SQL texts whose statement names are kept; far above the store's own (~60). */
const MAX_REMEMBERED_STATEMENT_NAMES = 2_000;

export interface PgPoolDeps {
  databaseUrl: string;
  log: Logger;
  /** Connections in the pool; default TRANSACTION_POOL_MAX_CONNECTIONS. */
  max?: number;
}

function createPgPool(deps: PgPoolDeps): pg.Pool {
  const pool = new pg.Pool({
    connectionString: deps.databaseUrl,
    max: deps.max ?? TRANSACTION_POOL_MAX_CONNECTIONS,
    application_name: TRANSACTIONS_APPLICATION_NAME,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  // pg-pool has already removed the client; the next checkout opens a new connection.
  pool.on('error', (error) => {
    deps.log.warn('idle database connection lost; it is replaced on next use', { error: errorFields(error) });
  });
  return pool;
}

/** What the pipelined driver takes from the pool: one wrapper (statement names, error logging) for both. */
export interface PgSide {
  /** Kysely's own Postgres driver: the pipelined driver hands it each transaction. */
  transactions: PostgresDriver;
  /**
   * Kysely on the pool alone, for the migrations: Kysely's migrator holds a session-level advisory lock on
   * one connection (`db.connection()`) around its transaction, and the pipelined driver has no session to
   * pin. Never destroyed: `end` ends the pool they share.
   */
  sessionDb: Kysely<unknown>;
  /**
   * Ends the pool, whichever of the two used it. Kysely's destroy would not: it ends the pool only if its own
   * Kysely ran a query, so a store that only migrated (one that only listens) kept the migration's idle
   * connection open until pg's idle timeout. Called once, by the store's close.
   */
  end(): Promise<void>;
}

export function openPgSide(deps: PgPoolDeps): PgSide {
  const pool = withPreparedStatements(createPgPool(deps), deps.log);
  return {
    transactions: new PostgresDriver({ pool }),
    sessionDb: new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }),
    end: () => pool.end(),
  };
}

type QueryFn = (text: unknown, values?: unknown) => unknown;

/**
 * Wraps each pooled client so that parameterised queries carry a statement name and connection
 * failures surface as DatabaseUnavailableError.
 */
function withPreparedStatements(pool: pg.Pool, log: Logger): pg.Pool {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const checkedOut = new WeakSet<pg.PoolClient>();
  const names = createStatementNames();
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    checkedOut.add(client);
    let proxy = wrapped.get(client);
    if (!proxy) {
      // pg-pool listens for errors only while a client is idle: a connection that ends while Kysely
      // holds it (between a transaction's queries) would otherwise emit an unhandled 'error'. The
      // query in flight, or the next one, fails; the pool drops the client when it is released.
      client.on('error', (error) => {
        // Once per connection: pg reports the server's message, then the socket's end.
        if (checkedOut.delete(client))
          log.warn('database connection lost while in use', { error: errorFields(error) });
      });
      const query = client.query.bind(client) as QueryFn;
      proxy = new Proxy(client, {
        get(target, prop, receiver) {
          if (prop === 'release') {
            return (error?: Error | boolean) => {
              checkedOut.delete(target);
              target.release(error);
            };
          }
          if (prop !== 'query') return Reflect.get(target, prop, receiver);
          return (text: unknown, values?: unknown[]) =>
            mappingErrors(
              typeof text === 'string' && Array.isArray(values) && values.length > 0
                ? query({ name: names.of(text), text, values })
                : query(text, values),
            );
        },
      });
      wrapped.set(client, proxy);
    }
    return proxy;
  };
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') {
        return async () => {
          try {
            return wrap(await target.connect());
          } catch (error) {
            throw mapDatabaseError(error);
          }
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A query's promise with its connection failures mapped; a cursor or stream (not a promise) as it is. */
function mappingErrors(result: unknown): unknown {
  if (!(result instanceof Promise)) return result;
  return result.catch((error: unknown) => {
    throw mapDatabaseError(error);
  });
}

/**
 * Statement names by SQL text, remembered: the texts are the store's compiled statements, a few dozen, and
 * hashing each one again on every query was ~1 % of a Postgres server's CPU under load (bench/e2e).
 */
export function createStatementNames() {
  // Bounded: texts built per call (IN lists of every length) must not grow it without end.
  const byText = new LRUCache<string, string>({ max: MAX_REMEMBERED_STATEMENT_NAMES });
  return {
    of(text: string): string {
      let name = byText.get(text);
      if (name === undefined) {
        name = `sy_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
        byText.set(text, name);
      }
      return name;
    },
  };
}
