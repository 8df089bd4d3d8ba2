/**
 * Opens PostgreSQL for Kysely through the `postgres` driver (postgres.js), which pipelines: queries
 * issued while a connection is busy are queued on it and written together, so many statements in
 * flight share a few connections and few socket writes. Each write wakes a server backend, and that
 * wake-up, not the SQL, was most of a statement's cost to this process (docs/benchmarks.md,
 * "Postgres against SQLite"). Parameterised statements are prepared once per connection; BIGINT columns (millisecond
 * timestamps, nonces) are read as numbers; NUMERIC amounts stay strings and become bigint in the row
 * mappers.
 *
 * Its sockets keep Nagle's algorithm on (postgres.js sets no TCP_NODELAY; `pg` does): a statement written
 * while the one before it on the connection is unanswered waits for that answer and leaves with whatever
 * was queued meanwhile, one write and one backend wake-up for several. Turned off, each statement left at
 * once and the in-process bench lost throughput (3 alternated pairs: 13.7–15.9 against 15.7–16.9 intents/s,
 * this process 65–74 against 60–64 ms of CPU per intent, the server 19–21 against 18).
 *
 * Transactions run on a small `pg` pool instead (pg-transaction-pool.ts): a transaction holds its
 * connection from BEGIN to COMMIT, so nothing pipelined waits behind it, and pg fails a transaction whose
 * connection the server ends, where a reserved postgres.js connection would leave its next query hanging.
 * A query or connect that fails because the server is not there throws DatabaseUnavailableError
 * (map-database-error.ts); postgres.js opens a new connection on next use.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  type PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type TransactionSettings,
} from 'kysely';
import postgres from 'postgres';
import type { Logger } from '../internal/logger.ts';
import { DatabaseUnavailableError } from './errors.ts';
import { errorFields, mapDatabaseError } from './map-database-error.ts';
import { INT8_OID, openPgSide } from './pg-transaction-pool.ts';
import type { Database as Schema } from './schema.ts';
import { createStatementConnections, type StatementConnections } from './statement-connections.ts';

/**
 * Connections per process unless the config says (`databasePoolSize`). Few, because queries pipeline
 * on them and are filled one at a time (statement-connections.ts): the first carries everything until a
 * row lock or a long query holds it up; the others take over meanwhile. Transactions have their own pool
 * (pg-transaction-pool.ts).
 */
export const POOL_MAX_CONNECTIONS = 4;
/** `application_name` of each kind of connection a process opens (pg_stat_activity shows it). */
export const STATEMENTS_APPLICATION_NAME = 'switchyard';
/** Commands whose row count Kysely reports as `numAffectedRows`. */
const ROW_COUNT_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
/** How long (s) `end` lets queries in flight finish before it closes their connections. */
const END_TIMEOUT_S = 5;

export interface PostgresClientDeps {
  databaseUrl: string;
  log: Logger;
  /** Connections kept open; default POOL_MAX_CONNECTIONS. */
  max?: number;
}

function createStatementClient(deps: PostgresClientDeps): StatementConnections {
  return createStatementConnections(deps.max ?? POOL_MAX_CONNECTIONS, () => openOneConnection(deps));
}

function openOneConnection(deps: PostgresClientDeps): postgres.Sql {
  return postgres(deps.databaseUrl, {
    max: 1,
    // How an operator tells the store's connections apart in pg_stat_activity.
    connection: { application_name: STATEMENTS_APPLICATION_NAME },
    // fetch_types (the default) reads the array types once per connection: complete-step passes text[].
    // Each connection keeps its prepared statements by text until it is replaced (max_lifetime, 45–90 min
    // by default): the store's texts are a few dozen shapes, IN lists by their length, sends recorded together
    // by their count.
    types: {
      int8: { to: INT8_OID, from: [INT8_OID], serialize: (value: unknown) => String(value), parse: Number },
    } as never,
    // Notices ("already exists, skipping" from migrations) are for a person at psql, not this log.
    onnotice: (notice) => deps.log.debug('database notice', { message: notice.message }),
  });
}

/** The store's Postgres side, opened by `openPostgres`. */
export interface OpenedPostgres {
  db: Kysely<Schema>;
  /** Where the migrations run (pg-transaction-pool.ts, `sessionDb`). */
  migrationDb: Kysely<unknown>;
  /** `pg_notify(channel, payload)` on the store's connections (intent-events-postgres.ts publishes with it). */
  notify(channel: string, payload: string): Promise<void>;
  /** Ends every connection: `db`'s, and the pool's even when only the migrations used it. */
  close(): Promise<void>;
}

export function openPostgres(deps: PostgresClientDeps): OpenedPostgres {
  const client = createStatementClient(deps);
  const pgSide = openPgSide({ databaseUrl: deps.databaseUrl, log: deps.log });
  const db = new Kysely<Schema>({ dialect: createPipelinedDialect(client, pgSide.transactions, deps.log) });
  return {
    db,
    migrationDb: pgSide.sessionDb,
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async close() {
      // Kysely's destroy reaches the driver only if `db` ran a query; the pool is ended either way.
      await db.destroy();
      await pgSide.end();
    },
  };
}

function createPipelinedDialect(
  client: StatementConnections,
  transactions: PostgresDriver,
  log: Logger,
): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => createPipelinedDriver(client, transactions, log),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
}

/**
 * Kysely acquires a connection for every query. Outside a transaction that is a handle on the shared
 * client (postgres.js picks the connection and pipelines); `beginTransaction` pins the handle to a pg
 * connection of its own until `releaseConnection`.
 */
function createPipelinedDriver(
  client: StatementConnections,
  transactions: PostgresDriver,
  log: Logger,
): Driver {
  const outage = createOutageLog(log);
  let ended = false;
  // BEGIN, COMMIT and ROLLBACK go through the handle's executeQuery like every other statement (the
  // benchmarks' counters wrap it), which hands them to the transaction's pg connection.
  const inTransaction = (connection: DatabaseConnection, text: string) => {
    const handle = connection as PipelinedConnection;
    if (!handle.transaction) throw new Error(`${text}: no transaction was begun on this connection`);
    return handle.executeQuery(CompiledQuery.raw(text)).then(() => {});
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
      (connection as PipelinedConnection).transaction = await transactions.acquireConnection();
      await inTransaction(connection, beginStatement(settings));
    },
    commitTransaction: (connection) => inTransaction(connection, 'commit'),
    rollbackTransaction: (connection) => inTransaction(connection, 'rollback'),
    async releaseConnection(connection) {
      const handle = connection as PipelinedConnection;
      if (!handle.transaction) return;
      const held = handle.transaction;
      handle.transaction = undefined;
      await transactions.releaseConnection(held as never);
    },
    async destroy() {
      if (ended) return;
      // The statement connections only: the transaction pool is ended by `close` (openPostgres).
      ended = true;
      try {
        await client.end({ timeout: END_TIMEOUT_S });
      } catch (error) {
        log.warn('closing the database connections failed', { error });
      }
    },
  };
}

function beginStatement({ isolationLevel, accessMode }: TransactionSettings): string {
  if (!isolationLevel && !accessMode) return 'begin';
  return ['start transaction', isolationLevel && `isolation level ${isolationLevel}`, accessMode]
    .filter(Boolean)
    .join(' ');
}

/** Exported for the benchmarks' statement counters, which wrap its `executeQuery`: one call, one statement. */
export class PipelinedConnection implements DatabaseConnection {
  readonly #client: StatementConnections;
  readonly #outage: OutageLog;
  /** The pg connection of the transaction begun on this handle, until it is released. */
  transaction: DatabaseConnection | undefined;

  constructor(client: StatementConnections, outage: OutageLog) {
    this.#client = client;
    this.#outage = outage;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.transaction) return this.transaction.executeQuery<R>(query);
    try {
      const result = await this.#client.unsafe(query.sql, query.parameters);
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
      log.warn('database connection lost; statements fail until it is back', { error: errorFields(error) });
    },
    answered() {
      if (!down) return;
      down = false;
      log.info('database connection back');
    },
  };
}
