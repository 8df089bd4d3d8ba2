/**
 * GetIntentReceipt and GetIntentHistory answered from the cache of serialised receipts: the bytes
 * are exactly what the route's schema serialiser makes of the wire objects (fresh and cached, both
 * dialects, a realistic mix of finished and running intents), a change to a cached intent shows on
 * the next read (in this process at once; from another process once its notification arrives), and
 * cached bytes never cross projects. SQLite and Postgres.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentFixture, randomAddress } from '../../bench/fixtures/wire-intent.ts';
import { TO_SERVICE } from '../../src/api/dialect.ts';
import { historyEntryToWire, receiptToWire } from '../../src/api/methods/reads/to-wire.ts';
import { deriveSchema, hasRenamedKey } from '../../src/api/schemas/derive.ts';
import { METHODS } from '../../src/api/schemas/methods.ts';
import { type ApiServer, createApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { IntentStatus, Page, Store, TransactionUpsert } from '../../src/store/index.ts';
import { describeEachDialect, rawQuery } from '../harness/database.ts';
import { CHAINS, USDC_A, WETH_B } from './fixtures.ts';

const DIALECTS = ['Trails', 'Service'] as const;
type WireDialect = (typeof DIALECTS)[number];
const chainById = new Map(CHAINS.map((c) => [c.chainId, c]));
const [alpha, beta] = CHAINS as [(typeof CHAINS)[0], (typeof CHAINS)[0]];

/** Finished intents (cacheable) interleaved with running and quoted ones (never cached). */
const STATUS_MIX: IntentStatus[] = ['SUCCEEDED', 'EXECUTING', 'SUCCEEDED', 'FAILED', 'QUOTED', 'SUCCEEDED'];
const PATH_TO: Record<string, IntentStatus[]> = {
  QUOTED: [],
  EXECUTING: ['COMMITTED', 'EXECUTING'],
  SUCCEEDED: ['COMMITTED', 'EXECUTING', 'SUCCEEDED'],
  FAILED: ['COMMITTED', 'EXECUTING', 'FAILED'],
};
const INTENT_COUNT = 14;
const PAGE_SIZE = 5;

/** A server with only a response schema per route, as the API declares it: the reference serialiser. */
async function referenceServer(store: Store): Promise<FastifyInstance> {
  const ref = Fastify({ logger: false });
  for (const dialect of DIALECTS) {
    const schemaOf = (method: 'GetIntentHistory' | 'GetIntentReceipt') => {
      const response = METHODS[method].response;
      const rename = dialect === 'Service' && hasRenamedKey(response, TO_SERVICE) ? TO_SERVICE : undefined;
      return { response: { 200: deriveSchema(response, 'response', rename) } };
    };
    ref.post(`/${dialect}/GetIntentHistory`, { schema: schemaOf('GetIntentHistory') }, async (request) => {
      const { projectId, ownerAddress, page } = request.body as {
        projectId: number;
        ownerAddress?: string;
        page?: Page;
      };
      const result = await store.intents.history({
        projectId,
        ...(ownerAddress && { ownerAddress }),
        ...(page && { page }),
      });
      return {
        intents: result.intents.map((r) => historyEntryToWire({ chainById }, r, dialect)),
        nextPage: result.nextPage,
      };
    });
    ref.post(`/${dialect}/GetIntentReceipt`, { schema: schemaOf('GetIntentReceipt') }, async (request) => {
      const { projectId, intentId } = request.body as { projectId: number; intentId: string };
      const record = await store.intents.getReceipt({ projectId, intentId });
      return { intentReceipt: receiptToWire({ chainById }, record!, dialect) };
    });
  }
  await ref.ready();
  return ref;
}

/** Stores an intent of `owner` and walks it to `status` with its receipt transactions. */
async function addIntent(
  store: Store,
  { projectId, owner, status, i }: { projectId: number; owner: string; status: IntentStatus; i: number },
): Promise<string> {
  const fixture = intentFixture({
    projectId,
    ownerAddress: owner,
    originChainId: alpha.chainId,
    destinationChainId: beta.chainId,
    originTokenAddress: USDC_A.toLowerCase(),
    destinationTokenAddress: WETH_B.toLowerCase(),
    createdAt: new Date(Date.UTC(2025, 5, 1, 12, 0, i)),
  });
  const { intentId } = await store.intents.insert(fixture.intent);
  for (const to of PATH_TO[status]!) await store.intents.updateStatus({ intentId, to });
  if (status === 'QUOTED') return intentId;
  const transactions: TransactionUpsert[] =
    status === 'EXECUTING'
      ? // A relayed origin (spelt SENT on /rpc/Trails) and no destination yet.
        [fixture.transactions[0]!, { ...fixture.transactions[1]!, status: 'RELAYED', minedAt: null }]
      : status === 'FAILED'
        ? [
            fixture.transactions[0]!,
            { ...fixture.transactions[1]!, status: 'FAILED', statusReason: 'execution reverted' },
            fixture.transactions[3]!,
          ]
        : fixture.transactions.slice(0, 3).map((t) => ({ ...t, meta: { metaTxnId: `meta-${i}` } }));
  for (const t of transactions) await store.transactions.upsert(t);
  return intentId;
}

describeEachDialect('cached receipt reads', ({ openStore, database }) => {
  const owner = randomAddress();
  const intentIds: string[] = [];
  let store: Store;
  let api: ApiServer;
  let url: string;
  let ref: FastifyInstance;
  let projectId: number;
  let key: string;
  let otherKey: string;
  let receiptsRead: string[] = [];
  /** History page index queries: a page answered from the page cache makes none. */
  let indexReads = 0;

  const post = async (dialect: WireDialect, method: string, body: unknown, accessKey = key) => {
    const response = await fetch(`${url}/rpc/${dialect}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': accessKey },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  const reference = async (dialect: WireDialect, method: string, body: unknown) =>
    (await ref.inject({ method: 'POST', url: `/${dialect}/${method}`, payload: body as object })).body;

  beforeAll(async () => {
    store = await openStore();
    projectId = (await store.projects.create('cache')).id;
    key = (await store.accessKeys.create({ projectId })).key;
    const other = await store.projects.create('cache-other');
    otherKey = (await store.accessKeys.create({ projectId: other.id })).key;
    for (let i = 0; i < INTENT_COUNT; i++)
      intentIds.push(
        await addIntent(store, { projectId, owner, status: STATUS_MIX[i % STATUS_MIX.length]!, i }),
      );
    // Counts the intents whose receipts the API had to read from the database.
    const getReceipts = store.intents.getReceipts.bind(store.intents);
    const getReceipt = store.intents.getReceipt.bind(store.intents);
    store.intents.getReceipts = async (input) => {
      receiptsRead.push(...input.intentIds);
      return getReceipts(input);
    };
    store.intents.getReceipt = async (input) => {
      receiptsRead.push(input.intentId);
      return getReceipt(input);
    };
    const historyIndex = store.intents.historyIndex.bind(store.intents);
    store.intents.historyIndex = async (filter) => {
      indexReads++;
      return historyIndex(filter);
    };
    api = await createApiServer({ chains: CHAINS, store, log: createSilentLogger(), rateLimit: false });
    url = await api.listen(0, '127.0.0.1');
    ref = await referenceServer(store);
  });
  afterAll(async () => {
    await api?.close();
    await ref?.close();
  });

  it("answers history pages with the schema serialiser's exact bytes, fresh and from the cache, on both dialects", async () => {
    const finished = new Set(
      intentIds.filter((_, i) => ['SUCCEEDED', 'FAILED'].includes(STATUS_MIX[i % 6]!)),
    );
    for (const dialect of DIALECTS) {
      for (const pass of ['fresh', 'cached'] as const) {
        receiptsRead = [];
        let page: Page | undefined = { pageSize: PAGE_SIZE };
        let pages = 0;
        while (page) {
          if (pages > INTENT_COUNT) throw new Error('paging did not end');
          const body: { byOwnerAddress: string; page: Page } = { byOwnerAddress: owner, page };
          const ours = await post(dialect, 'GetIntentHistory', body);
          expect(ours.status).toBe(200);
          expect(ours.text).toBe(
            await reference(dialect, 'GetIntentHistory', { projectId, ownerAddress: owner, page }),
          );
          page = (JSON.parse(ours.text) as { nextPage?: Page }).nextPage;
          pages++;
        }
        expect(pages).toBe(Math.ceil(INTENT_COUNT / PAGE_SIZE));
        // The second walk reads only the unfinished intents again.
        if (pass === 'cached') expect(receiptsRead.some((id) => finished.has(id))).toBe(false);
        else expect(receiptsRead).toHaveLength(INTENT_COUNT);
      }
    }
    expect((await post('Trails', 'GetIntentHistory', { byOwnerAddress: owner })).text).toContain('"SENT"');
    expect((await post('Service', 'GetIntentHistory', { byOwnerAddress: owner })).text).toContain(
      '"RELAYED"',
    );
  });

  it("answers receipts with the schema serialiser's exact bytes, fresh and from the cache", async () => {
    for (const dialect of DIALECTS) {
      for (const intentId of intentIds) {
        for (let pass = 0; pass < 2; pass++) {
          const ours = await post(dialect, 'GetIntentReceipt', {
            intentId: intentId.toUpperCase().replace('0X', '0x'),
          });
          expect(ours.status).toBe(200);
          expect(ours.text).toBe(await reference(dialect, 'GetIntentReceipt', { projectId, intentId }));
        }
      }
    }
  });

  it('shows a change to a finished, cached intent on the very next read', async () => {
    const intentId = intentIds[0]!;
    const before = await post('Trails', 'GetIntentReceipt', { intentId });
    await post('Trails', 'GetIntentHistory', { byOwnerAddress: owner, page: { pageSize: INTENT_COUNT } });
    expect(JSON.parse(before.text).intentReceipt.refundTransaction).toBeUndefined();

    const refundHash = `0x${'ab'.repeat(32)}`;
    await store.transactions.upsert({
      intentId,
      kind: 'refund',
      chainId: alpha.chainId,
      status: 'SUCCEEDED',
      txnHash: refundHash,
      tokenAmount: 5n,
    });
    const after = await post('Trails', 'GetIntentReceipt', { intentId });
    expect(JSON.parse(after.text).intentReceipt.refundTransaction).toMatchObject({
      txnHash: refundHash,
      tokenAmount: '5',
    });
    expect(after.text).toBe(await reference('Trails', 'GetIntentReceipt', { projectId, intentId }));
    const history = await post('Trails', 'GetIntentHistory', {
      byOwnerAddress: owner,
      page: { pageSize: INTENT_COUNT },
    });
    const entry = (
      JSON.parse(history.text) as {
        intents: { intentId: string; receipt: { refundTransaction?: unknown } }[];
      }
    ).intents.find((e) => e.intentId === intentId);
    expect(entry?.receipt.refundTransaction).toMatchObject({ txnHash: refundHash });
  });

  it('shows a change written by another process once its notification arrives (Postgres)', async () => {
    if (!store.capabilities.supportsListenNotify) return;
    const intentId = intentIds[2]!;
    await post('Trails', 'GetIntentReceipt', { intentId });
    const writer = await openStore();
    const hash = `0x${'cd'.repeat(32)}`;
    await writeFailedRefundAndHear({ listener: store, writer, intentId, chainId: alpha.chainId, hash });
    const after = await post('Trails', 'GetIntentReceipt', { intentId });
    expect(JSON.parse(after.text).intentReceipt.refundTransaction).toMatchObject({
      txnHash: hash,
      status: 'FAILED',
    });
  });

  it("never answers another project's key with cached bytes", async () => {
    const intentId = intentIds[5]!;
    expect((await post('Trails', 'GetIntentReceipt', { intentId })).status).toBe(200);
    const other = await post('Trails', 'GetIntentReceipt', { intentId }, otherKey);
    expect(JSON.parse(other.text)).toMatchObject({ error: 'NotFound' });
    const history = await post('Trails', 'GetIntentHistory', { byOwnerAddress: owner }, otherKey);
    expect(JSON.parse(history.text).intents).toEqual([]);
  });

  describe('whole pages from the page cache', () => {
    // A project whose intents are all finished, so its pages (by owner and project-wide) are cacheable.
    const [ownerA, ownerB] = [randomAddress(), randomAddress()];
    const idsA: string[] = [];
    const idsB: string[] = [];
    let finished: number;
    let finishedKey: string;
    let count = 0;
    const add = async (target: Store, project: number, owner: string, status: IntentStatus) =>
      addIntent(target, { projectId: project, owner, status, i: 100 + count++ });
    const pageOf = (owner?: string) => ({
      ...(owner && { byOwnerAddress: owner }),
      page: { pageSize: PAGE_SIZE },
    });
    const read = async (dialect: WireDialect, owner?: string) => {
      const ours = await post(dialect, 'GetIntentHistory', pageOf(owner), finishedKey);
      expect(ours.status).toBe(200);
      return ours.text;
    };
    const expected = (dialect: WireDialect, owner?: string) =>
      reference(dialect, 'GetIntentHistory', {
        projectId: finished,
        ...(owner && { ownerAddress: owner }),
        page: { pageSize: PAGE_SIZE },
      });
    const idsOn = (text: string) =>
      (JSON.parse(text) as { intents: { intentId: string }[] }).intents.map((e) => e.intentId);

    beforeAll(async () => {
      finished = (await store.projects.create('cache-finished')).id;
      finishedKey = (await store.accessKeys.create({ projectId: finished })).key;
      for (const status of ['SUCCEEDED', 'FAILED', 'SUCCEEDED'] as const)
        idsA.push(await add(store, finished, ownerA, status));
      for (const status of ['SUCCEEDED', 'SUCCEEDED'] as const)
        idsB.push(await add(store, finished, ownerB, status));
    });

    it('answers a page again without reading its index, with the same bytes, on both dialects', async () => {
      for (const dialect of DIALECTS) {
        for (const owner of [ownerA, undefined]) {
          const first = await read(dialect, owner);
          indexReads = 0;
          receiptsRead = [];
          const again = await read(dialect, owner);
          expect(indexReads).toBe(0);
          expect(receiptsRead).toEqual([]);
          expect(again).toBe(first);
          expect(again).toBe(await expected(dialect, owner));
        }
      }
      expect(idsOn(await read('Trails', ownerA))).toEqual([...idsA].reverse());
    });

    it("shows an insert on the next read of the owner's pages and the project-wide pages, and keeps other owners' pages", async () => {
      for (const owner of [ownerA, ownerB, undefined]) await read('Trails', owner);
      // Finished, so that the owner's pages stay cacheable for the tests below.
      const fresh = await add(store, finished, ownerA, 'SUCCEEDED');
      indexReads = 0;
      const pageA = await read('Trails', ownerA);
      expect(idsOn(pageA)[0]).toBe(fresh);
      expect(pageA).toBe(await expected('Trails', ownerA));
      const project = await read('Trails');
      expect(idsOn(project)[0]).toBe(fresh);
      expect(project).toBe(await expected('Trails'));
      expect(indexReads).toBe(2);
      // Owner B's page cannot hold the new intent: it stays cached.
      expect(await read('Trails', ownerB)).toBe(await expected('Trails', ownerB));
      expect(indexReads).toBe(2);
      idsA.push(fresh);
    });

    it("shows a change to a cached page's intent on the next read", async () => {
      const intentId = idsB[0]!;
      await read('Service', ownerB);
      await read('Service');
      const hash = `0x${'ef'.repeat(32)}`;
      await store.transactions.upsert({
        intentId,
        kind: 'refund',
        chainId: alpha.chainId,
        status: 'SUCCEEDED',
        txnHash: hash,
      });
      for (const owner of [ownerB, undefined]) {
        const page = await read('Service', owner);
        expect(page).toContain(hash);
        expect(page).toBe(await expected('Service', owner));
      }
    });

    it('never shows one project’s page to another, nor another project’s insert', async () => {
      const pageA = await read('Trails', ownerA);
      // The same owner in another project (the main one): its own page, and no trace of this one's.
      const elsewhere = await add(store, projectId, ownerA, 'SUCCEEDED');
      const mainPage = await post('Trails', 'GetIntentHistory', pageOf(ownerA));
      expect(idsOn(mainPage.text)).toEqual([elsewhere]);
      indexReads = 0;
      expect(await read('Trails', ownerA)).toBe(pageA);
      expect(indexReads).toBe(0);
      expect(pageA).toBe(await expected('Trails', ownerA));
      const other = await post('Trails', 'GetIntentHistory', pageOf(ownerA), otherKey);
      expect(idsOn(other.text)).toEqual([]);
    });

    it('never caches pages filtered by status: an intent reaching the status shows', async () => {
      const body = { byOwnerAddress: ownerB, byStatus: 'SUCCEEDED', page: { pageSize: PAGE_SIZE } };
      const late = await add(store, finished, ownerB, 'QUOTED');
      indexReads = 0;
      expect(idsOn((await post('Trails', 'GetIntentHistory', body, finishedKey)).text)).not.toContain(late);
      expect(idsOn((await post('Trails', 'GetIntentHistory', body, finishedKey)).text)).not.toContain(late);
      expect(indexReads).toBe(2);
      for (const to of PATH_TO.SUCCEEDED!) await store.intents.updateStatus({ intentId: late, to });
      expect(idsOn((await post('Trails', 'GetIntentHistory', body, finishedKey)).text)[0]).toBe(late);
      idsB.push(late);
    });

    it('shows an insert and a change written by another process once their notifications arrive (Postgres)', async () => {
      if (!store.capabilities.supportsListenNotify) return;
      const writer = await openStore();
      await read('Trails', ownerA);
      await read('Trails');
      const inserted = new Promise<void>((resolve) => {
        const off = store.events.subscribeInserts((insert) => {
          if (insert.projectId !== finished || insert.ownerAddress !== ownerA) return;
          off();
          resolve();
        });
      });
      const fresh = await writer.intents.insert(
        intentFixture({
          projectId: finished,
          ownerAddress: ownerA,
          originChainId: alpha.chainId,
          destinationChainId: beta.chainId,
          originTokenAddress: USDC_A.toLowerCase(),
          destinationTokenAddress: WETH_B.toLowerCase(),
          createdAt: new Date(Date.UTC(2025, 5, 1, 13, 0, 0)),
        }).intent,
      );
      await inserted;
      for (const owner of [ownerA, undefined]) {
        const page = await read('Trails', owner);
        expect(idsOn(page)[0]).toBe(fresh.intentId);
        expect(page).toBe(await expected('Trails', owner));
      }
      // A change to a finished intent on a cached page (owner B's page: all finished).
      await read('Trails', ownerB);
      const intentId = idsB[1]!;
      const hash = `0x${'12'.repeat(32)}`;
      await writeFailedRefundAndHear({ listener: store, writer, intentId, chainId: alpha.chainId, hash });
      const page = await read('Trails', ownerB);
      expect(page).toContain(hash);
      expect(page).toBe(await expected('Trails', ownerB));
    });

    it('shows a change written while the listening connection was down once it listens again (Postgres)', async () => {
      if (!store.capabilities.supportsListenNotify) return;
      const writer = await openStore();
      const intentId = idsB[0]!;
      await read('Trails', ownerB);
      await post('Trails', 'GetIntentReceipt', { intentId }, finishedKey);
      let missed = 0;
      const back = new Promise<void>((resolve) => {
        const off = store.events.subscribeMissed(() => {
          if (++missed < 2) return;
          off();
          resolve();
        });
      });
      // Every listening connection on this database, this server's included.
      await rawQuery(
        database(),
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'",
      );
      const hash = `0x${'34'.repeat(32)}`;
      await writer.transactions.upsert({
        intentId,
        kind: 'refund',
        chainId: alpha.chainId,
        status: 'SUCCEEDED',
        txnHash: hash,
      });
      await back;
      const page = await read('Trails', ownerB);
      expect(page).toContain(hash);
      expect(page).toBe(await expected('Trails', ownerB));
      const receipt = await post('Trails', 'GetIntentReceipt', { intentId }, finishedKey);
      expect(receipt.text).toContain(hash);
    });
  });
});

/** Writes a FAILED refund row through `writer` (another process's store) and waits until `listener` hears it. */
async function writeFailedRefundAndHear(input: {
  listener: Store;
  writer: Store;
  intentId: string;
  chainId: number;
  hash: string;
}): Promise<void> {
  const { listener, writer, intentId, chainId, hash } = input;
  const heard = new Promise<void>((resolve) => {
    const off = listener.events.subscribe(intentId, () => {
      off();
      resolve();
    });
  });
  await writer.transactions.upsert({ intentId, kind: 'refund', chainId, status: 'FAILED', txnHash: hash });
  await heard;
}
