/**
 * Opens the embedded SQLite database (better-sqlite3) for Kysely, with a prepared-statement cache.
 */
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteStatement,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../internal/logger.ts';
import { mapDatabaseError } from './map-database-error.ts';
import type { Database as Schema } from './schema.ts';
import {
  SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './wal-checkpointer.ts';

/** Wait this long for another process's write lock (the CLI beside a running server) before failing. */
const BUSY_TIMEOUT_MS = 5_000;
/** Distinct SQL texts whose prepared statements are kept; the store issues a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 500;

export interface OpenSqliteOptions {
  log: Logger;
  /** For tests: the checkpoint worker's options. */
  checkpointer?: Pick<WalCheckpointerOptions, 'everyMs' | 'restartFrames' | 'driverPath'>;
  /** For tests: how long (ms) a statement waits for another connection's lock (default BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
}

export function openSqlite(path: string, options: OpenSqliteOptions): Kysely<Schema> {
  const db = new Database(path);
  // WAL: readers never block the writer. synchronous=NORMAL is durable across a process crash
  // (SIGKILL) in WAL mode; only a power loss can drop the last commits.
  const journal = db.pragma('journal_mode = WAL', { simple: true });
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
  // An in-memory database has no WAL to checkpoint.
  const checkpointer = journal === 'wal' ? checkpointOffThread(db, path, options) : undefined;
  const database = withStatementCache(db, () => checkpointer?.stop());
  return new Kysely<Schema>({ dialect: new FifoSqliteDialect({ database }) });
}

/** The connection stops checkpointing on commit; a worker does it (wal-checkpointer.ts). */
function checkpointOffThread(
  db: Database.Database,
  path: string,
  options: OpenSqliteOptions,
): WalCheckpointer {
  db.pragma('wal_autocheckpoint = 0');
  return startWalCheckpointer({
    ...options.checkpointer,
    path,
    log: options.log,
    onFailure: () => {
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  });
}

/**
 * Kysely's SQLite driver guards its single connection with a mutex whose waiters all wake on every
 * release (quadratic under many concurrent requests). This one queues waiters first-in first-out,
 * so each release wakes exactly one; and it opens transactions with BEGIN IMMEDIATE, taking the
 * write lock up front, so a transaction never fails half-way on a lock held by another process.
 * A lock held past the busy timeout throws DatabaseUnavailableError (map-database-error.ts): the API answers
 * 503 and the engine retries the step as an outage, where SQLite's own error was a 500 and a "chain error".
 */
class FifoSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new FifoSqliteDriver(this.#config);
  }
}

class FifoSqliteDriver extends SqliteDriver {
  readonly #waiters: (() => void)[] = [];
  #held = false;
  #mapped: DatabaseConnection | undefined;

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#held = true;
    // Uncontended now: the base class's own mutex never has a waiter. It hands out one connection always.
    const connection = await super.acquireConnection();
    this.#mapped ??= withMappedErrors(connection);
    return this.#mapped;
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const next = this.#waiters.shift();
    // Hand the connection straight to the next waiter (it stays held), or mark it free.
    if (next) next();
    else this.#held = false;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** The connection with its lock errors mapped; better-sqlite3 throws synchronously, the mapped error rejects. */
function withMappedErrors(connection: DatabaseConnection): DatabaseConnection {
  return {
    executeQuery(query) {
      try {
        return connection.executeQuery(query);
      } catch (error) {
        return Promise.reject(mapDatabaseError(error));
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/**
 * Kysely prepares every query afresh; better-sqlite3 statements are reusable, so keep them by SQL
 * text. Safe because the store never streams (a statement is never busy when reused).
 */
function withStatementCache(db: Database.Database, beforeClose: () => void): SqliteDatabase {
  const cache = new LRUCache<string, SqliteStatement>({ max: STATEMENT_CACHE_SIZE });
  return {
    prepare(sqlText: string): SqliteStatement {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = db.prepare(sqlText) as unknown as SqliteStatement;
        cache.set(sqlText, statement);
      }
      return statement;
    },
    close() {
      cache.clear();
      // The worker's connection closes first, so this one is the last and SQLite folds the WAL back.
      beforeClose();
      db.close();
    },
  };
}
