/**
 * Opens the store: PostgreSQL when `databaseUrl` is a postgres:// URL, otherwise the embedded
 * SQLite file at `sqlitePath`. Migrations run before the store is returned.
 */
import type { KeyObject } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { ConfigError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import { createAccessKeysRepo } from './access-keys.ts';
import { type DialectProfile, POSTGRES_PROFILE, SQLITE_PROFILE } from './capabilities.ts';
import type { StoreContext } from './context.ts';
import { createEventLogRepo } from './event-log.ts';
import { createExpiredQuotesRepo } from './expired-quotes.ts';
import { createGaugesRepo } from './gauges.ts';
import { createLocalIntentEvents } from './intent-events-local.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { createIntentsRepo } from './intents.ts';
import { migrateToLatest } from './migrate.ts';
import { createNoncesRepo } from './nonces.ts';
import { createProjectsRepo } from './projects.ts';
import type { Database } from './schema.ts';
import { createSignedTransactionsRepo } from './signed-transactions.ts';
import { createSolverInventoryRepo } from './solver-inventory.ts';
import { createStepsRepo } from './steps.ts';
import { createTaskLeasesRepo } from './task-leases.ts';
import { createTransactionsRepo } from './transactions.ts';
import type { IntentEvents, StepsRepo, Store } from './types.ts';
import { createWebhookSecretKeyring } from './webhook-secret-cipher.ts';
import { createWebhooksRepo } from './webhooks.ts';

export interface CreateStoreOptions {
  /** `postgres://…` or `postgresql://…` selects PostgreSQL. */
  databaseUrl?: string;
  /** Connections in the PostgreSQL pool (default POOL_MAX_CONNECTIONS); the LISTEN connection is extra. */
  poolSize?: number;
  /** The SQLite file (or `:memory:`) used when there is no Postgres URL. */
  sqlitePath?: string;
  log: Logger;
  /** The clock used for timestamps; tests may pin it. */
  now?: () => Date;
  /**
   * WEBHOOK_SECRETS_KEY (AES-256): webhook signing secrets are written encrypted with it and read back
   * through it. Without it they are written plain (src/store/webhook-secret-cipher.ts).
   */
  webhookSecretsKey?: KeyObject | undefined;
  /** WEBHOOK_SECRETS_PREVIOUS_KEY, during a rotation: read with too, never written with. */
  webhookSecretsPreviousKey?: KeyObject | undefined;
}

interface Opened {
  db: Kysely<Database>;
  profile: DialectProfile;
  events: IntentEvents;
  inWrite?: WriteNotifications;
  /** Where the migrations run when not on `db` (Postgres: a connection they can hold as a session). */
  migrationDb?: Kysely<unknown>;
  closeDriver: () => Promise<void>;
}

export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

async function open(options: CreateStoreOptions): Promise<Opened> {
  if (options.databaseUrl && isPostgresUrl(options.databaseUrl)) {
    const url = options.databaseUrl;
    // Each driver is loaded only by the store that uses it: the Postgres drivers are ~14 MB of a SQLite
    // server's memory, better-sqlite3 ~5 MB of a Postgres one (docs/benchmarks.md, "Waiting at scale").
    // Statements go through postgres.js (it pipelines); transactions, migrations and the listening
    // connection use pg.
    const [{ default: pg }, { openPostgres }, { createPgIntentEvents, LISTENER_APPLICATION_NAME }] =
      await Promise.all([import('pg'), import('./open-postgres.ts'), import('./intent-events-postgres.ts')]);
    const { db, migrationDb, notify, close } = openPostgres({
      databaseUrl: url,
      log: options.log.child({ component: 'database' }),
      ...(options.poolSize !== undefined && { max: options.poolSize }),
    });
    const events = await createPgIntentEvents({
      notify,
      connect: async () => {
        const listener = new pg.Client({
          connectionString: url,
          application_name: LISTENER_APPLICATION_NAME,
        });
        await listener.connect();
        return listener;
      },
      log: options.log.child({ component: 'intent-events' }),
    });
    return {
      db,
      profile: POSTGRES_PROFILE,
      events,
      inWrite: events.inWrite,
      migrationDb,
      closeDriver: close,
    };
  }
  if (options.databaseUrl) {
    throw new ConfigError(
      `DATABASE_URL must be a postgres:// URL (got '${options.databaseUrl.split(':')[0]}:…'); unset it to use SQLite`,
    );
  }
  if (!options.sqlitePath)
    throw new ConfigError('createStore needs databaseUrl (Postgres) or sqlitePath (SQLite)');
  const { openSqlite } = await import('./open-sqlite.ts');
  const db = openSqlite(options.sqlitePath, { log: options.log.child({ component: 'store' }) });
  return { db, profile: SQLITE_PROFILE, events: createLocalIntentEvents(), closeDriver: () => db.destroy() };
}

/**
 * The intents, receipt-row and steps repositories, each of whose SQLite paths calls another's (a completion's
 * end moves the intent's status; a status move journals its steps), so the steps repository is bound once
 * all exist. Without data-modifying WITH (SQLite) a status move with its steps runs in a transaction, through
 * the same repositories wired to it (`inTransaction`, when `transactional`).
 */
function wireEngineRepos(ctx: StoreContext, transactional: boolean) {
  const transactions = createTransactionsRepo(ctx);
  const bound: { steps?: StepsRepo } = {};
  const intents = createIntentsRepo(ctx, {
    advanceRow: transactions.advance,
    enqueueSteps: (input) => {
      if (!bound.steps) throw new Error('the steps repository is not bound yet');
      return bound.steps.enqueueAll(input);
    },
    ...(transactional && {
      // Inside, the same wiring on the transaction, which opens none of its own.
      inTransaction: (write) =>
        ctx.db.transaction().execute((trx) => write(wireEngineRepos({ ...ctx, db: trx }, false).intents)),
    }),
  });
  const steps = createStepsRepo(ctx, {
    advanceRow: transactions.advance,
    updateStatus: intents.updateStatus,
  });
  bound.steps = steps;
  return { intents, transactions, steps };
}

export async function createStore(options: CreateStoreOptions): Promise<Store> {
  const opened = await open(options);
  const { db, profile, events } = opened;
  try {
    await migrateToLatest(
      opened.migrationDb ?? (db as Kysely<unknown>),
      profile,
      options.log.child({ component: 'store' }),
    );
  } catch (error) {
    await events.close();
    await opened.closeDriver();
    throw error;
  }
  const log = options.log.child({ component: 'store' });
  const ctx: StoreContext = {
    db,
    capabilities: profile.capabilities,
    events,
    now: options.now ?? (() => new Date()),
    notify: async (intentId) => {
      try {
        await events.publish(intentId);
      } catch (error) {
        log.warn('intent change notification failed', { intentId, error });
      }
    },
    notifyInsert: async (insert) => {
      try {
        await events.publishInsert(insert);
      } catch (error) {
        log.warn('intent insert notification failed', { ...insert, error });
      }
    },
    notifyInWrite: opened.inWrite,
  };
  let closing: Promise<void> | undefined;
  const { intents, transactions, steps } = wireEngineRepos(
    ctx,
    !profile.capabilities.supportsDataModifyingWith,
  );
  return {
    capabilities: profile.capabilities,
    projects: createProjectsRepo(ctx),
    accessKeys: createAccessKeysRepo(ctx),
    intents,
    transactions,
    steps,
    nonces: createNoncesRepo(ctx),
    signedTransactions: createSignedTransactionsRepo(ctx, { advanceRow: transactions.advance }),
    expiredQuotes: createExpiredQuotesRepo(ctx),
    solverInventory: createSolverInventoryRepo(ctx),
    gauges: createGaugesRepo(ctx),
    taskLeases: createTaskLeasesRepo(ctx),
    eventLog: createEventLogRepo(ctx),
    webhooks: createWebhooksRepo(ctx, {
      secrets: createWebhookSecretKeyring({
        key: options.webhookSecretsKey,
        previousKey: options.webhookSecretsPreviousKey,
      }),
    }),
    events,
    async ping() {
      const started = performance.now();
      await sql`select 1`.execute(db);
      return performance.now() - started;
    },
    close() {
      closing ??= (async () => {
        await events.close();
        await opened.closeDriver();
      })();
      return closing;
    },
  };
}
