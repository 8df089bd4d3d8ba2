/**
 * GET /events against a listening API server on SQLite and on Postgres, with intents changed through the
 * store (on Postgres through a second store, as another process would): authentication and input errors in
 * the webrpc shape, live events in order with their states, filters, resuming from Last-Event-ID (header or
 * parameter) with exactly the missed events, gaps after the retention, heartbeats, and a closed client's
 * stream gone from the server. The same stream against a devnet and the official client is
 * test/events/stream-devnet.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, createApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { newIntent, randomHash } from '../../src/store/testing.ts';
import type { Store } from '../../src/store/types.ts';
import { CHAINS } from '../api/fixtures.ts';
import { describeEachDialect } from '../harness/database.ts';
import { eventsOf, openSse, type SseConnection } from './support/sse-client.ts';

/** Heartbeats in these tests (ms): production's 15 s would only make the test wait. */
const TEST_HEARTBEAT_MS = 100;

describeEachDialect('GET /events', ({ dialect, openStore }) => {
  let store: Store;
  /** Where the changes are written: another store on Postgres (another process), the same on SQLite. */
  let writer: Store;
  let server: ApiServer;
  let url: string;
  let key: string;
  let projectId: number;
  let otherKey: string;
  let open = 0;
  const opened: SseConnection[] = [];

  beforeAll(async () => {
    store = await openStore();
    writer = dialect === 'postgres' ? await openStore() : store;
    const project = await store.projects.create('stream');
    projectId = project.id;
    key = (await store.accessKeys.create({ projectId })).key;
    const other = await store.projects.create('stream-other');
    otherKey = (await store.accessKeys.create({ projectId: other.id })).key;
    server = await createApiServer({
      chains: CHAINS,
      store,
      log: createSilentLogger(),
      rateLimit: false,
      eventStream: {
        heartbeatMs: TEST_HEARTBEAT_MS,
        observer: {
          streamsChanged: (count) => {
            open = count;
          },
        },
      },
    });
    url = await server.listen(0);
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await server?.close();
  });

  const stream = async (query = '', headers: Record<string, string> = { 'x-access-key': key }) => {
    const connection = await openSse(`${url}/events${query}`, headers);
    opened.push(connection);
    return connection;
  };
  /** Opens a stream and waits until it is live: its first heartbeat (after the opening comment). */
  const live = async (query = '', headers?: Record<string, string>) => {
    const connection = await stream(query, headers);
    expect(connection.status).toBe(200);
    await waitFor(() => connection.comments >= 2);
    return connection;
  };
  /** An intent moved through commit, a deposit and execution: 4 events. */
  const runIntent = async (owner?: string) => {
    const { intentId } = await writer.intents.insert(
      newIntent(projectId, owner ? { ownerAddress: owner } : {}),
    );
    await writer.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const hash = randomHash();
    await writer.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 31337,
      status: 'PENDING',
      txnHash: hash,
      from: ['UNKNOWN'],
    });
    await writer.intents.updateStatus({ intentId, to: 'EXECUTING' });
    await writer.intents.updateStatus({ intentId, to: 'SUCCEEDED' });
    return { intentId, hash };
  };

  describe('errors before the stream starts are webrpc errors', () => {
    it('no access key: Unauthorized naming both places a key goes', async () => {
      const c = await stream('', {});
      expect(c.status).toBe(401);
      expect(JSON.parse(await c.body())).toMatchObject({
        error: 'Unauthorized',
        code: 1000,
        message: 'GET /events needs an access key: send it in the X-Access-Key header or as ?accessKey=',
      });
    });

    it('HEAD and POST are not streams: answered as for any other path', async () => {
      const head = await fetch(`${url}/events`, { method: 'HEAD', headers: { 'x-access-key': key } });
      expect(head.status).toBe(405);
      const post = await fetch(`${url}/events`, { method: 'POST', headers: { 'x-access-key': key } });
      expect(post.status).toBe(404);
      expect(await post.json()).toMatchObject({ error: 'WebrpcBadRoute' });
    });

    it('an unknown key: AccessKeyNotFound', async () => {
      const c = await stream('', { 'x-access-key': 'sy_unknown' });
      expect(c.status).toBe(401);
      expect(JSON.parse(await c.body())).toMatchObject({ code: 1101 });
    });

    it.each([
      ['?intentId=0x12', 'intentId: must be an intent id (0x followed by 64 hex digits)'],
      ['?owner=alice', 'owner: must be a 20-byte hex address (0x followed by 40 hex digits)'],
      ['?status=DONE', "status: 'DONE' is not an intent status"],
      ['?onwer=0x0000000000000000000000000000000000000001', 'onwer: unknown parameter'],
      ['?status=SUCCEEDED&status=FAILED', 'status: must be given once'],
      ['?lastEventId=-1', 'Last-Event-ID: must be an event id (a whole number, 0 or more)'],
    ])('%s: InvalidArgument naming the parameter', async (query, message) => {
      const c = await stream(query);
      expect(c.status).toBe(400);
      const body = JSON.parse(await c.body());
      expect(body).toMatchObject({ error: 'InvalidArgument', code: 2000 });
      expect(body.message).toContain(message);
    });
  });

  it('sends each change of the project as it happens, in order, with the states after it', async () => {
    const c = await live();
    const mine = await runIntent();
    // Another project's intent: never on this stream.
    const other = await writer.projects.findByName('stream-other');
    const foreign = await writer.intents.insert(newIntent(other!.id));
    await writer.intents.updateStatus({ intentId: foreign.intentId, to: 'COMMITTED' });
    const done = await runIntent();
    await c.until((m) =>
      eventsOf(m).some((e) => e.data.intentId === done.intentId && e.data.status === 'SUCCEEDED'),
    );
    const events = eventsOf(c.messages);
    expect(events.some((e) => e.data.intentId === foreign.intentId)).toBe(false);
    const ids = events.map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    expect(c.messages.map((m) => m.id)).toEqual(ids.map(String));
    expect(
      events
        .filter((e) => e.data.intentId === mine.intentId)
        .map((e) => [e.type, e.data.status, e.data.receiptStates]),
    ).toEqual([
      ['intent.committed', 'COMMITTED', ['UNKNOWN', 'UNKNOWN', 'UNKNOWN']],
      ['transaction.deposit', 'COMMITTED', ['PENDING', 'UNKNOWN', 'UNKNOWN']],
      ['intent.executing', 'EXECUTING', ['PENDING', 'UNKNOWN', 'UNKNOWN']],
      ['intent.succeeded', 'SUCCEEDED', ['PENDING', 'UNKNOWN', 'UNKNOWN']],
    ]);
    const deposit = events.find(
      (e) => e.data.intentId === mine.intentId && e.type === 'transaction.deposit',
    )!;
    expect(deposit.data.transaction).toEqual({
      kind: 'deposit',
      status: 'PENDING',
      chainId: 31337,
      txnHash: mine.hash.toLowerCase(),
    });
    expect(new Date(deposit.createdAt).toISOString()).toBe(deposit.createdAt);
    c.close();
  });

  it('filters by intentId, owner and status; ?accessKey= authenticates as the header does', async () => {
    const owner = '0x00000000000000000000000000000000000000aB';
    const byOwner = await live(`?owner=${owner}`);
    const byStatus = await live('?status=succeeded,FAILED');
    const target = await runIntent(owner);
    const byIntent = await live(
      `?intentId=${target.intentId.toUpperCase().replace('0X', '0x')}&accessKey=${key}`,
      {},
    );
    const rest = await runIntent();
    await writer.transactions.upsert({
      intentId: target.intentId,
      kind: 'refund',
      chainId: 31337,
      status: 'PENDING',
    });
    await byIntent.until((m) => eventsOf(m).length === 1);
    expect(eventsOf(byIntent.messages).map((e) => [e.data.intentId, e.type])).toEqual([
      [target.intentId, 'transaction.refund'],
    ]);
    // The status is the intent's after the change: the refund row came to a SUCCEEDED intent.
    await byStatus.until((m) => eventsOf(m).length === 3);
    expect(eventsOf(byStatus.messages).map((e) => [e.data.intentId, e.type])).toEqual([
      [target.intentId, 'intent.succeeded'],
      [rest.intentId, 'intent.succeeded'],
      [target.intentId, 'transaction.refund'],
    ]);
    await byOwner.until((m) => eventsOf(m).length === 5);
    expect(new Set(eventsOf(byOwner.messages).map((e) => e.data.ownerAddress))).toEqual(
      new Set([owner.toLowerCase()]),
    );
    for (const c of [byOwner, byStatus, byIntent]) c.close();
  });

  it('a client that reconnects with Last-Event-ID receives exactly the events it missed', async () => {
    const watcher = await live();
    const first = await live();
    await runIntent();
    await first.until((m) => m.length === 4);
    const lastSeen = first.lastEventId()!;
    first.close();
    // Missed while away; then the reconnect, by header and by parameter.
    await runIntent();
    await runIntent();
    await watcher.until((m) => m.length === 12);
    const viaHeader = await stream('', { 'x-access-key': key, 'last-event-id': lastSeen });
    const viaQuery = await stream(`?lastEventId=${lastSeen}`);
    await runIntent();
    await watcher.until((m) => m.length === 16);
    const expected = watcher.messages.slice(4).map((m) => m.data);
    for (const again of [viaHeader, viaQuery]) {
      await again.until((m) => m.length >= 12);
      // Give a duplicate time to show up before comparing.
      await sleep(200);
      expect(again.messages.map((m) => m.data)).toEqual(expected);
      again.close();
    }
    watcher.close();
  });

  it('resuming from events the retention deleted says so with a gap message, then goes on', async () => {
    const before = await store.eventLog.latest(projectId);
    await runIntent();
    const removed = await store.eventLog.deleteOlderThan({
      before: new Date(Date.now() + 60_000),
      limit: 100_000,
    });
    expect(removed).toBeGreaterThan(0);
    await runIntent();
    const c = await stream('', { 'x-access-key': key, 'last-event-id': String(before) });
    await c.until((m) => eventsOf(m).length === 4);
    expect(c.messages[0]).toMatchObject({ event: 'gap', id: undefined });
    expect(JSON.parse(c.messages[0]!.data)).toEqual({ reason: 'deleted', from: before + 1, to: before + 4 });
    expect(eventsOf(c.messages)[0]!.id).toBe(before + 5);
    c.close();

    const beyond = await stream('', { 'x-access-key': key, 'last-event-id': String(before + 1000) });
    await beyond.until((m) => m.length === 1);
    expect(JSON.parse(beyond.messages[0]!.data)).toEqual({
      reason: 'beyond-latest',
      lastEventId: before + 1000,
      latest: before + 8,
    });
    await runIntent();
    await beyond.until((m) => eventsOf(m).length === 4);
    expect(eventsOf(beyond.messages)[0]!.id).toBe(before + 9);
    beyond.close();
  });

  it('sends heartbeats, and a client that leaves frees its stream on the server', async () => {
    // The earlier tests' clients have left.
    await waitFor(() => open === 0);
    const base = open;
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => stream('', { 'x-access-key': otherKey })),
    );
    await waitFor(() => open === base + 20);
    await clients[0]!.until(() => clients[0]!.comments >= 3, 5_000);
    for (const c of clients) c.close();
    await waitFor(() => open === base);
  });

  it('closing the server ends every stream', async () => {
    const second = await createApiServer({
      chains: CHAINS,
      store,
      log: createSilentLogger(),
      rateLimit: false,
    });
    const secondUrl = await second.listen(0);
    const c = await openSse(`${secondUrl}/events`, { 'x-access-key': key });
    expect(c.status).toBe(200);
    await second.close();
    await c.ended;
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}
