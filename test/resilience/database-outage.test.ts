/**
 * A PostgreSQL outage with an intent in flight, in this process (so an unhandled 'error' event or rejection
 * fails the run): the service (test/harness/app.ts, the production assembly) on a throwaway embedded
 * Postgres that the test stops (fast shutdown: every session ends with 57P01, as a restart or failover
 * does) and starts again on the same data directory and port. The intent's fill waits in beta's mempool
 * when the database goes; beta mines it during the outage, so the engine meets the chain's progress
 * with no journal to write it to.
 *
 * During the outage an API call answers Unavailable (2002) with HTTP 503, Retry-After and a message that
 * names the database; the idle pooled connections are logged (warn) as lost, not thrown. When the database
 * is back the same process, never restarted, finishes the intent: SUCCEEDED, the recipient paid the quoted
 * amount on beta, and a new quote works.
 */
import { TrailsApi } from '@0xtrails/api';
import { sql } from 'kysely';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { DatabaseUnavailableError } from '../../src/store/errors.ts';
import { openPostgres } from '../../src/store/open-postgres.ts';
import { isTerminal } from '../../src/store/statuses.ts';
import type { Store } from '../../src/store/types.ts';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import { FAST_ENGINE_OPTIONS, startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import { balanceOf } from '../harness/balances.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../harness/embedded-postgres.ts';
import { holdInMempool } from './support/hold-in-mempool.ts';
import type { ResilienceService } from './support/resilience-service.ts';
import { waitFor } from './support/wait-for.ts';

/** Embedded Postgres init and start, the devnet, the service, on a loaded 2-core machine (ms). */
const SETUP_TIMEOUT_MS = 120_000;
/** The whole run: an outage of a few seconds, then step leases left by failed bookkeeping expire (10 s). */
const TEST_TIMEOUT_MS = 90_000;
/** How long the database stays down (ms): long enough for the engine's loops and an API call to meet it. */
const OUTAGE_MS = 3_000;
/** Lets the second test's transaction take its connection and run its first query before the stop (ms). */
const HOLD_BEFORE_STOP_MS = 200;
/** Give up on the intent finishing after the database is back after this long (ms). */
const RECOVERY_LIMIT_MS = 45_000;

const state: {
  pg?: EmbeddedServer;
  store?: Store;
  app?: TestSwitchyard;
  logs: Record<string, unknown>[];
} = { logs: [] };

beforeAll(async () => {
  state.pg = await startEmbeddedPostgres();
  state.store = await createStore({
    databaseUrl: state.pg.url,
    log: createLogger({ level: 'warn', write: (line) => state.logs.push(JSON.parse(line)), format: 'json' }),
  });
  state.app = await startTestSwitchyard({
    store: state.store,
    engineOptions: FAST_ENGINE_OPTIONS,
    rateLimit: false,
  });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await state.app?.stop();
  await state.store?.close();
  await state.pg?.stop();
});

it(
  'Postgres goes down with an intent in flight: 503 Unavailable meanwhile, the same process finishes it after',
  async () => {
    const { app, pg, store } = state as Required<typeof state>;
    const api = new TrailsApi(app.key, { hostname: app.url });
    const [alpha, beta] = app.net.chains as [TestDevnetChain, TestDevnetChain];
    const requestTo = (recipient: Address) =>
      quoteRequest({
        owner: app.net.devnet.accounts.user.address,
        from: alpha,
        fromToken: 'USDC',
        to: beta,
        toToken: 'USDC',
        recipient,
        amountIn: usdc('30'),
      });
    const recipient = freshAddress();
    const { intent } = await api.quoteIntent(requestTo(recipient));
    await api.commitIntent({ intent });
    // Beta keeps what it is sent until the test mines: the intent's fill waits there when the database goes.
    await beta.testClient.setAutomine(false);
    const raw = intent.depositTransaction as unknown as { to: Address; data: Hex };
    const depositHash = await alpha.walletFor('user').sendTransaction({ to: raw.to, data: raw.data });
    await alpha.publicClient.waitForTransactionReceipt({ hash: depositHash });
    await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: depositHash });
    // holdInMempool reads only the store of the service it is given.
    const fill = await holdInMempool({ store } as ResilienceService, beta, 'solver-fill');

    await pg.pause();
    try {
      // (b) An API call meets the outage: the documented code and status, a message naming the cause.
      const failed = await api.getIntent({ intentId: intent.intentId }).catch((error: unknown) => error);
      expect(failed).toMatchObject({ name: 'Unavailable', code: 2002, status: 503 });
      expect((failed as Error).message).toMatch(/temporarily unavailable: its database cannot be reached/);
      const raw503 = await fetch(`${app.url}/rpc/Trails/GetIntent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-key': app.key },
        body: JSON.stringify({ intentId: intent.intentId }),
      });
      expect(raw503.status).toBe(503);
      expect(raw503.headers.get('retry-after')).toBe('5');
      expect(await raw503.json()).toMatchObject({ error: 'Unavailable', code: 2002, status: 503 });
      // RuntimeStatus, an operator's probe, names the database unhealthy (and answers: it needs none).
      const { status } = await api.runtimeStatus();
      expect(status.services.find((s) => s.name === 'database')?.healthy).toBe(false);
      // The chain moves on without the database: the fill is mined while the engine cannot record it.
      await beta.testClient.setAutomine(true);
      await beta.testClient.mine({ blocks: 1 });
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    } finally {
      await pg.resume();
    }

    // The outage was logged, structured, as a warning naming the driver's or the server's code: the
    // connection's end (57P01, CONNECTION_CLOSED) or, where postgres.js had already dropped an idle
    // connection without a word, the refused reconnect.
    expect(state.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: expect.stringMatching(/database connection lost/),
        error: expect.objectContaining({
          code: expect.stringMatching(/^(57P01|CONNECTION_CLOSED|CONNECTION_ENDED|ECONNREFUSED|ECONNRESET)$/),
        }),
      }),
    );

    // (c) The same process, not restarted, finishes the intent once the database is back.
    const done = await waitFor(
      'the intent to finish after the database is back',
      async () => {
        const row = await store.intents.getForEngine(intent.intentId).catch(() => undefined);
        return row && isTerminal(row.status) ? row : undefined;
      },
      RECOVERY_LIMIT_MS,
    );
    expect(done.status).toBe('SUCCEEDED');
    const fillReceipt = await beta.publicClient.getTransactionReceipt({ hash: fill.hash as Hex });
    expect(fillReceipt.status).toBe('success');
    const received = await balanceOf(beta, beta.entry.tokens.USDC as Address, recipient);
    expect(received).toBe(intent.quote.toAmount);
    expect((await api.getIntent({ intentId: intent.intentId })).intent.status).toBe('SUCCEEDED');
    const again = await api.quoteIntent(requestTo(freshAddress()));
    const { status } = await api.runtimeStatus();
    expect(status.services.find((s) => s.name === 'database')?.healthy).toBe(true);
    expect(again.intent.status).toBe('QUOTED');
  },
  TEST_TIMEOUT_MS,
);

it(
  'a connection held mid-transaction when the server goes: the transaction fails with DatabaseUnavailableError, nothing is thrown elsewhere',
  async () => {
    const { pg } = state as Required<typeof state>;
    const log = createLogger({
      level: 'warn',
      write: (line) => state.logs.push(JSON.parse(line)),
      format: 'json',
    });
    const { db } = openPostgres({ databaseUrl: pg.url, log });
    try {
      let stopped: () => void = () => {};
      const serverGone = new Promise<void>((resolve) => {
        stopped = resolve;
      });
      const transaction = db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          // pg-pool does not listen on a checked-out client: this is where its 'error' had no listener.
          await serverGone;
          await sql`select 2`.execute(trx);
        })
        .catch((error: unknown) => error);
      // The transaction holds its connection before the server goes.
      await new Promise((resolve) => setTimeout(resolve, HOLD_BEFORE_STOP_MS));
      await pg.pause();
      stopped();
      expect(await transaction).toBeInstanceOf(DatabaseUnavailableError);
      expect(state.logs).toContainEqual(
        expect.objectContaining({
          msg: 'database connection lost while in use',
          error: expect.objectContaining({ code: '57P01' }),
        }),
      );
      await pg.resume();
      expect((await sql<{ x: number }>`select 3 as x`.execute(db)).rows).toEqual([{ x: 3 }]);
    } finally {
      await db.destroy();
    }
  },
  TEST_TIMEOUT_MS,
);
