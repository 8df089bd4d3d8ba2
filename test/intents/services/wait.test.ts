/**
 * WaitIntentReceipt through the official client: immediate answers, holds woken by store changes (no
 * polling), terminal statuses, the hold time-out, disconnect clean-up, and — on Postgres — a waiter on one
 * server woken by a change written through another store (LISTEN/NOTIFY).
 */
import { TrailsApi, type TransactionStatus } from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import {
  createStore,
  type IntentStatus,
  type Store,
  type TransactionStatus as StoredStatus,
  type TransactionKind,
} from '../../../src/store/index.ts';
import { newIntent } from '../../../src/store/testing.ts';
import { CHAINS } from '../../api/fixtures.ts';
import { startTestService, throwawayOperator } from '../../harness/app.ts';
import { createTestDatabase, type TestDatabase } from '../../harness/database.ts';
import { createRecordingEngine } from './support.ts';

/** Long enough that a test never reaches it unless it means to. */
const LONG_HOLD_MS = 60_000;
const SHORT_HOLD_MS = 200;

interface Served {
  api: TrailsApi;
  url: string;
  close(): Promise<void>;
}

/** The process `switchyard serve` assembles, on the test's store; the engine records and never sends. */
async function serve(store: Store, key: string, holdMs: number): Promise<Served> {
  const app = await startTestService({
    chains: CHAINS,
    operator: throwawayOperator(),
    store,
    engine: createRecordingEngine(),
    intentServices: { waitHoldMs: holdMs },
    rateLimit: false,
  });
  return { url: app.url, api: new TrailsApi(key, { hostname: app.url }), close: () => app.stop() };
}

async function quotedIntent(store: Store, projectId: number): Promise<string> {
  const intent = await store.intents.insert(newIntent(projectId));
  for (const kind of ['deposit', 'origin', 'destination'] as TransactionKind[]) {
    await store.transactions.upsert({ intentId: intent.intentId, kind, chainId: 31_337, status: 'UNKNOWN' });
  }
  return intent.intentId;
}

/** True while the promise has not settled, checked after a full request round trip to the same server. */
async function stillPending(promise: Promise<unknown>, api: TrailsApi): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await api.ping();
  return !settled;
}

const UNKNOWN3: TransactionStatus[] = ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] as TransactionStatus[];

describe('WaitIntentReceipt [sqlite]', () => {
  let store: Store;
  let projectId: number;
  let held: Served;
  let short: Served;
  let active = 0;

  beforeAll(async () => {
    const real = await createStore({ sqlitePath: ':memory:', log: createSilentLogger() });
    // Counts live subscriptions so the tests can see that every waiter lets go of its own.
    const events = {
      ...real.events,
      subscribe: (intentId: string, listener: (id: string) => void) => {
        active++;
        const unsubscribe = real.events.subscribe(intentId, listener);
        return () => {
          active--;
          unsubscribe();
        };
      },
      publish: (id: string) => real.events.publish(id),
      close: () => real.events.close(),
    };
    store = Object.assign(Object.create(real) as Store, { events });
    projectId = (await store.projects.ensure('wait')).id;
    const { key } = await store.accessKeys.create({ projectId });
    held = await serve(store, key, LONG_HOLD_MS);
    short = await serve(store, key, SHORT_HOLD_MS);
  });
  afterAll(async () => {
    await held?.close();
    await short?.close();
    await store?.close();
  });

  it('answers at once with [] or without lastReceiptStates: three states, not done', async () => {
    const intentId = await quotedIntent(store, projectId);
    for (const request of [{ intentId, lastReceiptStates: [] }, { intentId }]) {
      const answer = await held.api.waitIntentReceipt(request);
      expect(answer.receiptStates).toEqual(UNKNOWN3);
      expect(answer.done).toBe(false);
      expect(answer.intentReceipt.intentId).toBe(intentId);
    }
  });

  it('holds while the states are equal and answers when a transaction row changes', async () => {
    const intentId = await quotedIntent(store, projectId);
    const waiting = held.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await stillPending(waiting, held.api)).toBe(true);
    await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: 31_337,
      status: 'PENDING',
      txnHash: `0x${'ab'.repeat(32)}`,
    });
    const answer = await waiting;
    expect(answer.receiptStates).toEqual(['PENDING', 'UNKNOWN', 'UNKNOWN']);
    expect(answer.intentReceipt.depositTransaction.txnHash).toBe(`0x${'ab'.repeat(32)}`);
    expect(answer.done).toBe(false);
  });

  it('answers the next call at once when the intent changed after the last answer, and holds it when not', async () => {
    const intentId = await quotedIntent(store, projectId);
    const first = await held.api.waitIntentReceipt({ intentId });
    // Nothing changed since that answer: the next call with its states holds.
    const unchanged = held.api.waitIntentReceipt({ intentId, lastReceiptStates: first.receiptStates });
    expect(await stillPending(unchanged, held.api)).toBe(true);
    await store.transactions.upsert({ intentId, kind: 'deposit', chainId: 31_337, status: 'PENDING' });
    const second = await unchanged;
    expect(second.receiptStates).toEqual(['PENDING', 'UNKNOWN', 'UNKNOWN']);
    // A change between an answer and the client's next call is answered at once.
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 31_337, status: 'PENDING' });
    const third = await held.api.waitIntentReceipt({ intentId, lastReceiptStates: second.receiptStates });
    expect(third.receiptStates).toEqual(['PENDING', 'PENDING', 'UNKNOWN']);
  });

  it('keeps holding through a change that leaves the states equal', async () => {
    const intentId = await quotedIntent(store, projectId);
    const waiting = held.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    expect(await stillPending(waiting, held.api)).toBe(true);
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 31_337, status: 'RELAYED' });
    // /rpc/Trails spells RELAYED as SENT (client 0.9.4 has no RELAYED).
    expect((await waiting).receiptStates).toEqual(['UNKNOWN', 'SENT', 'UNKNOWN']);
    const echoed = held.api.waitIntentReceipt({
      intentId,
      lastReceiptStates: ['UNKNOWN', 'SENT', 'UNKNOWN'] as TransactionStatus[],
    });
    expect(await stillPending(echoed, held.api)).toBe(true);
    await store.transactions.upsert({ intentId, kind: 'refund', chainId: 31_337, status: 'PENDING' });
    expect((await echoed).receiptStates).toEqual(['UNKNOWN', 'SENT', 'UNKNOWN', 'PENDING']);
  });

  it.each(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'] as IntentStatus[])(
    'answers at once with done: true when the intent is %s',
    async (status) => {
      const intentId = await quotedIntent(store, projectId);
      await store.intents.updateStatus({ intentId, to: status });
      const answer = await held.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
      expect(answer.done).toBe(true);
      expect(answer.intentReceipt.status).toBe(status);
    },
  );

  it('wakes a waiter when the intent reaches a terminal status, with done: true', async () => {
    const intentId = await quotedIntent(store, projectId);
    const waiting = held.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await stillPending(waiting, held.api)).toBe(true);
    await store.intents.updateStatus({ intentId, to: 'FAILED' });
    expect((await waiting).done).toBe(true);
  });

  it('answers 200 with done: false when the hold time passes without a change', async () => {
    const intentId = await quotedIntent(store, projectId);
    const answer = await short.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(answer).toMatchObject({ done: false, receiptStates: UNKNOWN3 });
  });

  it('times out every held call on the shared hold timer, also one that begins after the others ended', async () => {
    const intentId = await quotedIntent(store, projectId);
    const before = active;
    const timedOut = { done: false, receiptStates: UNKNOWN3 };
    const first = short.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    const second = short.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await first).toMatchObject(timedOut);
    expect(await second).toMatchObject(timedOut);
    await vi.waitFor(() => expect(active).toBe(before));
    expect(await short.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 })).toMatchObject(
      timedOut,
    );
    await vi.waitFor(() => expect(active).toBe(before));
  });

  it('lets go of the subscription when the client disconnects', async () => {
    const intentId = await quotedIntent(store, projectId);
    const before = active;
    const abort = new AbortController();
    const waiting = held.api.waitIntentReceipt(
      { intentId, lastReceiptStates: UNKNOWN3 },
      undefined,
      abort.signal,
    );
    await vi.waitFor(() => expect(active).toBe(before + 1));
    abort.abort();
    await expect(waiting).rejects.toThrow();
    await vi.waitFor(() => expect(active).toBe(before));
  });

  it('answers NotFound for an unknown intent', async () => {
    await expect(held.api.waitIntentReceipt({ intentId: `0x${'00'.repeat(32)}` })).rejects.toThrow(
      /not found/,
    );
  });
});

describe('WaitIntentReceipt [postgres]', () => {
  let database: TestDatabase;
  let storeA: Store;
  let storeB: Store;
  let served: Served;
  let projectId: number;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    storeA = await createStore({ log: createSilentLogger(), ...database.options });
    storeB = await createStore({ log: createSilentLogger(), ...database.options });
    projectId = (await storeA.projects.ensure('wait-pg')).id;
    const { key } = await storeA.accessKeys.create({ projectId });
    served = await serve(storeA, key, LONG_HOLD_MS);
  }, 120_000);
  afterAll(async () => {
    await served?.close();
    await storeA?.close();
    await storeB?.close();
    await database?.drop();
  });

  it('wakes a waiter on one server when another store (process) writes the change', async () => {
    const intentId = await quotedIntent(storeA, projectId);
    const waiting = served.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await stillPending(waiting, served.api)).toBe(true);
    await storeB.transactions.upsert({ intentId, kind: 'deposit', chainId: 31_337, status: 'MINING' });
    expect((await waiting).receiptStates).toEqual(['MINING', 'UNKNOWN', 'UNKNOWN']);
  });

  it("wakes it for the engine's conditional receipt write too (its NOTIFY rides in the statement), not for one that moves nothing", async () => {
    const intentId = await quotedIntent(storeA, projectId);
    const waiting = served.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await stillPending(waiting, served.api)).toBe(true);
    const relayingFrom = (from: StoredStatus[]) =>
      storeB.transactions.advance({ intentId, kind: 'origin', chainId: 31_337, status: 'RELAYING', from });
    // The row is UNKNOWN, not in `from`: nothing moves, nothing is announced, the call keeps holding.
    expect(await relayingFrom(['PENDING'])).toBeUndefined();
    expect(await stillPending(waiting, served.api)).toBe(true);
    await relayingFrom(['UNKNOWN', 'PENDING']);
    expect((await waiting).receiptStates).toEqual(['UNKNOWN', 'RELAYING', 'UNKNOWN']);
  });

  it('answers done when another store moves the intent to a terminal status (the NOTIFY in the update)', async () => {
    const intentId = await quotedIntent(storeA, projectId);
    const waiting = served.api.waitIntentReceipt({ intentId, lastReceiptStates: UNKNOWN3 });
    expect(await stillPending(waiting, served.api)).toBe(true);
    for (const to of ['COMMITTED', 'EXECUTING', 'FAILED'] as const) {
      expect((await storeB.intents.updateStatus({ intentId, to })).updated).toBe(true);
    }
    const answer = await waiting;
    expect([answer.done, answer.intentReceipt.status]).toEqual([true, 'FAILED']);
  });
});
