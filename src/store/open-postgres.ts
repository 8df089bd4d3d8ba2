/**
 * Opens PostgreSQL for Kysely through the `postgres` driver (postgres.js), which pipelines: queries
 * issued while a connection is busy are queued on it and written together, so many statements in
 * flight share a few connections and few socket writes. Each write wakes a server backend, and that
 * wake-up, not the SQL, was most of a statement's cost to this process (docs/benchmarks.md,
 * "Postgres against SQLite"). Parameterised statements are prepared once per connection; BIGINT columns (millisecond
 * timestamps, nonces) are read as numbers; NUMERIC amounts stay strings and become bigint in the row
 * mappers.
 *
 * Transactions run on a small `pg` pool instead (pg-transaction-pool.ts): a transaction holds its
 * connection from BEGIN to COMMIT, so nothing pipelined waits behind it, and pg fails a transaction whose
 * connection the server ends, where a reserved postgres.js connection would leave its next query hanging.
 * A query or connect that fails because the server is not there throws DatabaseUnavailableError
 * (map-database-error.ts); postgres.js opens a new connection on next use.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import postgres from 'postgres';
import type { Logger } from '../internal/logger.ts';
import { DatabaseUnavailableError } from './errors.ts';
import { mapDatabaseError } from './map-database-error.ts';
import { createTransactionDriver } from './pg-transaction-pool.ts';
import type { Database as Schema } from './schema.ts';

/**
 * Connections per process unless the config says (`databasePoolSize`). Few, because queries pipeline
 * on them: with 16 `select $1` in flight, 2 connections cost the client 111 µs of CPU per query against
 * 174 µs for 10 (fewer, fuller writes); 4 leave the others pipelining while one waits on a row lock.
 * Transactions have their own pool (pg-transaction-pool.ts).
 */
export const POOL_MAX_CONNECTIONS = 4;
const INT8_OID = 20;
/** `application_name` of each kind of connection a process opens (pg_stat_activity shows it). */
export const STATEMENTS_APPLICATION_NAME = 'switchyard';
/** Commands whose row count Kysely reports as `numAffectedRows`. */
const ROW_COUNT_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
/** How long (s) `end` lets queries in flight finish before it closes their connections. */
const END_TIMEOUT_S = 5;

export type PostgresClient = postgres.Sql;

export interface PostgresClientDeps {
  databaseUrl: string;
  log: Logger;
  /** Connections kept open; default POOL_MAX_CONNECTIONS. */
  max?: number;
}

export function createPostgresClient(deps: PostgresClientDeps): PostgresClient {
  return postgres(deps.databaseUrl, {
    max: deps.max ?? POOL_MAX_CONNECTIONS,
    // How an operator tells the store's connections apart in pg_stat_activity.
    connection: { application_name: STATEMENTS_APPLICATION_NAME },
    // fetch_types (the default) reads the array types once per connection: complete-step passes text[].
    // Each connection keeps its prepared statements by text until it is replaced (max_lifetime, 45–90 min
    // by default): the store's texts are a few dozen shapes, IN lists by their length.
    types: {
      int8: { to: INT8_OID, from: [INT8_OID], serialize: (value: unknown) => String(value), parse: Number },
    } as never,
    // Notices ("already exists, skipping" from migrations) are for a person at psql, not this log.
    onnotice: (notice) => deps.log.debug('database notice', { message: notice.message }),
  });
}

export interface PostgresConnections {
  /** Every statement outside a transaction, pipelined. */
  client: PostgresClient;
  /** Transactions (pg-transaction-pool.ts). */
  transactionPool: pg.Pool;
}

export function openPostgres(connections: PostgresConnections, log: Logger): Kysely<Schema> {
  return new Kysely<Schema>({ dialect: createPipelinedDialect(connections, log) });
}

function createPipelinedDialect(connections: PostgresConnections, log: Logger): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => createPipelinedDriver(connections, log),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
}

/**
 * Kysely acquires a connection for every query. Outside a transaction that is a handle on the shared
 * client (postgres.js picks the connection and pipelines); `beginTransaction` pins the handle to a pg
 * connection of its own until `releaseConnection`.
 */
function createPipelinedDriver({ client, transactionPool }: PostgresConnections, log: Logger): Driver {
  const transactions = createTransactionDriver(transactionPool, log);
  const outage = createOutageLog(log);
  let ended = false;
  const inTransaction = (connection: DatabaseConnection) => {
    const held = (connection as PipelinedConnection).transaction;
    if (!held) throw new Error('no transaction was begun on this connection');
    return held;
  };
  return {
    async init() {
      await transactions.init();
    },
    async acquireConnection() {
      if (ended) throw new Error('the database driver has been destroyed');
      return new PipelinedConnection(client, outage);
    },
    async beginTransaction(connection, settings: TransactionSettings) {
      const held = await transactions.acquireConnection();
      (connection as PipelinedConnection).transaction = held;
      await transactions.beginTransaction(held, settings);
    },
    commitTransaction: (connection) => transactions.commitTransaction(inTransaction(connection)),
    rollbackTransaction: (connection) => transactions.rollbackTransaction(inTransaction(connection)),
    async releaseConnection(connection) {
      const handle = connection as PipelinedConnection;
      if (!handle.transaction) return;
      const held = handle.transaction;
      handle.transaction = undefined;
      await transactions.releaseConnection(held as never);
    },
    async destroy() {
      if (ended) return;
      ended = true;
      await transactions.destroy();
      try {
        await client.end({ timeout: END_TIMEOUT_S });
      } catch (error) {
        log.warn('closing the database connections failed', { error });
      }
    },
  };
}

/** Exported for the benchmarks' statement counters, which wrap its `executeQuery`: one call, one statement. */
export class PipelinedConnection implements DatabaseConnection {
  readonly #client: PostgresClient;
  readonly #outage: OutageLog;
  /** The pg connection of the transaction begun on this handle, until it is released. */
  transaction: DatabaseConnection | undefined;

  constructor(client: PostgresClient, outage: OutageLog) {
    this.#client = client;
    this.#outage = outage;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.transaction) return this.transaction.executeQuery<R>(query);
    try {
      const result = await this.#client.unsafe(
        query.sql,
        query.parameters as postgres.ParameterOrJSON<never>[],
        {
          prepare: true,
        },
      );
      this.#outage.answered();
      return {
        rows: result as unknown as R[],
        ...(ROW_COUNT_COMMANDS.has(result.command) && { numAffectedRows: BigInt(result.count) }),
      };
    } catch (error) {
      const mapped = mapDatabaseError(error);
      if (mapped instanceof DatabaseUnavailableError) this.#outage.failed(error);
      throw mapped;
    }
  }

  // biome-ignore lint/correctness/useYield: the store never streams; Kysely's interface asks for the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported by the store');
  }
}

interface OutageLog {
  failed(error: unknown): void;
  answered(): void;
}

/**
 * One warning when statements start failing for want of a server (postgres.js ends a lost connection
 * silently and reconnects on next use), and one line when a statement is answered again.
 */
function createOutageLog(log: Logger): OutageLog {
  let down = false;
  return {
    failed(error) {
      if (down) return;
      down = true;
      const code = (error as { code?: unknown })?.code;
      log.warn('database connection lost; statements fail until it is back', {
        error: {
          message: (error as Error)?.message ?? String(error),
          ...(typeof code === 'string' && { code }),
        },
      });
    },
    answered() {
      if (!down) return;
      down = false;
      log.info('database connection back');
    },
  };
}
