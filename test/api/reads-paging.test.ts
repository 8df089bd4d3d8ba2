/**
 * History paging as a client meets it, on SQLite and on Postgres, over intents made by real QuoteIntent
 * calls on the devnet: a walk that follows `nextPage` verbatim ends after ⌈N / pageSize⌉ pages and sees
 * every intent once, also while new intents are quoted during the walk; the last page carries no
 * `nextPage`; `before` with a page's cursor answers the page that precedes it. Walked through the
 * official client (`@0xtrails/api` 0.9.4) and through plain HTTP on the seed's path.
 */
import { type Page, SortOrder, TrailsApi } from '@0xtrails/api';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { startTestService, type TestService } from '../harness/app.ts';
import { describeEachDialect } from '../harness/database.ts';
import { startTestDevnet, type TestDevnet } from '../harness/devnet.ts';

/** Intents quoted before the walks. */
const INTENT_COUNT = 11;
/** Page sizes walked: one, sizes that do and do not divide the count, the count itself, more than it. */
const PAGE_SIZES = [1, 3, 4, 11, 20];
/** Intents quoted while a walk is under way (between its first pages). */
const QUOTES_PER_WALK = 2;
/** Upper bound on pages in any walk here: a walk past it is a loop. */
const PAGE_LIMIT = 200;

let net: TestDevnet;
beforeAll(async () => {
  net = await startTestDevnet();
}, 120_000);
afterAll(() => net?.stop());

type Walker = (page: Page | undefined) => Promise<{ ids: string[]; nextPage?: Page | undefined }>;

describeEachDialect('history paging over quoted intents', (db) => {
  let app: TestService;
  let api: TrailsApi;
  const quoted: string[] = [];
  let quotes = 0;

  /** A real QuoteIntent (alpha USDC → beta USDC); a different amount each time, so a new intent. */
  async function quote(): Promise<string> {
    const [alpha, beta] = net.chains;
    quotes++;
    const { intent } = await api.quoteIntent({
      ownerAddress: privateKeyToAddress(generatePrivateKey()),
      originChainId: alpha!.entry.chainId,
      originTokenAddress: alpha!.entry.tokens.USDC!,
      destinationChainId: beta!.entry.chainId,
      destinationTokenAddress: beta!.entry.tokens.USDC!,
      originTokenAmount: parseUnits('20', 6) + BigInt(quotes),
      destinationTokenAmount: 0n,
      tradeType: 'EXACT_INPUT' as never,
    });
    return intent.intentId;
  }

  async function post(method: string, body: unknown) {
    const response = await fetch(`${app.url}/rpc/Service/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': app.key },
      body: JSON.stringify(body),
    });
    expect(response.status, `${method} ${JSON.stringify(body)}`).toBe(200);
    return (await response.json()) as { intents: { intentId: string }[]; nextPage?: Page };
  }

  const walkers: Record<string, Walker> = {
    'client GetIntentHistory': async (page) => {
      const r = await api.getIntentHistory({ ...(page && { page }) });
      return { ids: r.intents.map((e) => e.intentId), nextPage: r.nextPage };
    },
    'client GetIntentTransactionHistory': async (page) => {
      const r = await api.getIntentTransactionHistory({ ...(page && { page }) });
      return { ids: r.intents.map((e) => e.intentId), nextPage: r.nextPage };
    },
    'HTTP GetIntentHistory': async (page) => {
      const r = await post('GetIntentHistory', { ...(page && { page }) });
      return { ids: r.intents.map((e) => e.intentId), nextPage: r.nextPage };
    },
  };

  /**
   * Follows nextPage verbatim until it is absent, calling `between` after each page. The spec's rule:
   * "when nextPage is null or absent there are no more results".
   */
  async function walk(
    walker: Walker,
    first: Page | undefined,
    between: () => Promise<void> = async () => {},
  ) {
    const pages: string[][] = [];
    let page = first;
    for (;;) {
      const { ids, nextPage } = await walker(page);
      pages.push(ids);
      if (nextPage === undefined || nextPage === null) return pages;
      expect(nextPage.more, 'a nextPage says that there is more').toBe(true);
      if (pages.length > PAGE_LIMIT) throw new Error('paging did not end');
      await between();
      page = nextPage;
    }
  }

  beforeAll(async () => {
    const store = await db.openStore();
    app = await startTestService({
      chains: net.chainConfigs,
      operator: devnetOperator(net.devnet),
      store,
      rateLimit: false,
    });
    api = new TrailsApi(app.key, { hostname: app.url });
    for (let i = 0; i < INTENT_COUNT; i++) quoted.push(await quote());
    return () => app.stop();
  }, 120_000);

  it('a walk newest first ends after ⌈N/pageSize⌉ pages, each intent once, while new intents are quoted', async () => {
    for (const [name, walker] of Object.entries(walkers)) {
      for (const pageSize of PAGE_SIZES) {
        // Everything in the project when the walk starts, newest first.
        const before = (await walk(walker, { pageSize: 100 })).flat();
        const added: string[] = [];
        const pages = await walk(walker, { pageSize }, async () => {
          if (added.length < QUOTES_PER_WALK) added.push(await quote());
        });
        const label = `${name}, pages of ${pageSize}`;
        expect(pages.length, label).toBe(Math.ceil(before.length / pageSize));
        expect(pages.flat(), label).toEqual(before);
        expect(
          pages.slice(0, -1).every((p) => p.length === pageSize),
          label,
        ).toBe(true);
        for (const id of quoted)
          expect(
            pages.flat().filter((x) => x === id),
            label,
          ).toHaveLength(1);
        // What was quoted during the walk is on the first page of the next walk.
        if (added.length > 0) {
          const next = await walker({ pageSize: added.length });
          expect(next.ids, label).toEqual([...added].reverse());
        }
      }
    }
  }, 300_000);

  it('a walk by createdAt, either order, sees every intent once and ends', async () => {
    for (const order of [SortOrder.DESC, SortOrder.ASC]) {
      const sort = [{ column: 'createdAt', order }];
      const all = (
        await walk(walkers['client GetIntentHistory']!, { column: 'createdAt', sort, pageSize: 100 })
      ).flat();
      let extra = 2;
      const pages = await walk(
        walkers['HTTP GetIntentHistory']!,
        { column: 'createdAt', sort, pageSize: 4 },
        async () => {
          // Oldest first, a new intent joins the end of the walk: quote only two, so it ends.
          if (extra-- > 0) await quote();
        },
      );
      const seen = pages.flat();
      expect(new Set(seen).size, order).toBe(seen.length);
      if (order === SortOrder.DESC) expect(seen, order).toEqual(all);
      else expect(seen.slice(0, all.length), order).toEqual(all);
      expect(pages.length, order).toBe(Math.ceil(seen.length / 4));
    }
  }, 120_000);

  it('the last page has no nextPage, also when the page is full and when nothing matches', async () => {
    const total = (await walk(walkers['HTTP GetIntentHistory']!, { pageSize: 100 })).flat().length;
    const exact = await post('GetIntentHistory', { page: { pageSize: total } });
    expect(exact.intents).toHaveLength(total);
    expect(exact).not.toHaveProperty('nextPage');
    const none = await post('GetIntentHistory', {
      byOwnerAddress: privateKeyToAddress(generatePrivateKey()),
    });
    expect(none).toEqual({ intents: [] });
    const summaries = await api.getIntentTransactionHistory({ page: { pageSize: total } });
    expect(summaries.intents).toHaveLength(total);
    expect(summaries.nextPage).toBeUndefined();
  }, 60_000);

  it('before with the cursor that leads to the third page answers the second page exactly', async () => {
    const cases: Page[] = [
      { pageSize: 3 },
      { column: 'id', sort: [{ column: 'id', order: SortOrder.ASC }], pageSize: 2 },
      { column: 'createdAt', sort: [{ column: 'createdAt', order: SortOrder.DESC }], pageSize: 4 },
      { column: 'createdAt', sort: [{ column: 'createdAt', order: SortOrder.ASC }], pageSize: 3 },
    ];
    for (const first of cases) {
      const label = JSON.stringify(first);
      const one = await api.getIntentHistory({ page: first });
      const two = await api.getIntentHistory({ page: one.nextPage! });
      const toThird = two.nextPage!;
      expect(toThird.after, label).toBeTypeOf('number');
      const { after, ...rest } = toThird;
      const back = await api.getIntentHistory({ page: { ...rest, before: after } });
      expect(
        back.intents.map((e) => e.intentId),
        label,
      ).toEqual(two.intents.map((e) => e.intentId));
      // Its nextPage keeps going back: sent verbatim it answers the first page, and that is the start.
      const start = await api.getIntentHistory({ page: back.nextPage! });
      expect(
        start.intents.map((e) => e.intentId),
        label,
      ).toEqual(one.intents.map((e) => e.intentId));
      expect(start.nextPage, label).toBeUndefined();
      // The same through GetIntentTransactionHistory and plain HTTP.
      const summaries = await api.getIntentTransactionHistory({ page: { ...rest, before: after } });
      expect(summaries.intents.map((s) => s.intentId)).toEqual(two.intents.map((e) => e.intentId));
      const http = await post('GetIntentHistory', { page: { ...rest, before: after } });
      expect(http.intents.map((e) => e.intentId)).toEqual(two.intents.map((e) => e.intentId));
    }
  }, 60_000);

  it('a walk backwards follows nextPage verbatim to the newest intent, each intent once, and ends', async () => {
    const all = (await walk(walkers['client GetIntentHistory']!, { pageSize: 100 })).flat();
    // The cursor after the second-oldest intent, from the page that ends there.
    const upTo = await api.getIntentHistory({ page: { pageSize: all.length - 1 } });
    const cursor = upTo.nextPage!.after!;
    for (const [name, walker] of Object.entries(walkers)) {
      const pages = await walk(walker, { pageSize: 3, before: cursor });
      expect(pages.length, name).toBe(Math.ceil((all.length - 1) / 3));
      // Pages come nearest the cursor first, each in page order (newest first).
      expect(pages.reverse().flat(), name).toEqual(all.slice(0, -1));
    }
  }, 60_000);
});
