import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { InvalidPageError } from './errors.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './intent-history.ts';
import { newIntent, randomAddress, randomHash } from './testing.ts';
import type { IntentRecord, Page, PageColumn, Project, SortOrder, Store } from './types.ts';

const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

describeEachDialect('search intents', ({ openStore }) => {
  let store: Store;
  let project: Project;
  let other: Project;
  const ownerA = randomAddress();
  const ownerB = randomAddress();
  const hash = {
    i1Deposit: randomHash(),
    i1Origin: randomHash(),
    i2Deposit: randomHash(),
    i3Dest: randomHash(),
    i3Refund: randomHash(),
  };
  let i1: IntentRecord;
  let i2: IntentRecord;
  let i3: IntentRecord;
  const ids = (list: IntentRecord[]) => list.map((i) => i.intentId).sort();

  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('search');
    other = await store.projects.create('search-other');
    i1 = await store.intents.insert(newIntent(project.id, { ownerAddress: ownerA }));
    i2 = await store.intents.insert(newIntent(project.id, { ownerAddress: upper(ownerA) }));
    i3 = await store.intents.insert(newIntent(project.id, { ownerAddress: ownerB }));
    await store.intents.insert(newIntent(other.id, { ownerAddress: ownerA }));
    const tx = (intentId: string, kind: 'deposit' | 'origin' | 'destination' | 'refund', txnHash: string) =>
      store.transactions.upsert({ intentId, kind, chainId: 1, status: 'SUCCEEDED', txnHash });
    await tx(i1.intentId, 'deposit', hash.i1Deposit);
    await tx(i1.intentId, 'origin', hash.i1Origin);
    await store.intents.updateStatus({
      intentId: i2.intentId,
      to: 'EXECUTING',
      depositTransactionHash: hash.i2Deposit,
    });
    await tx(i3.intentId, 'destination', hash.i3Dest);
    await tx(i3.intentId, 'refund', hash.i3Refund);
  });

  it('finds by owner (any case), by intent id and by either intent address', async () => {
    const search = (f: Omit<Parameters<Store['intents']['search']>[0], 'projectId'>) =>
      store.intents.search({ projectId: project.id, ...f });
    expect(ids(await search({ byOwnerAddress: upper(ownerA) }))).toEqual(ids([i1, i2]));
    expect(ids(await search({ byIntentId: upper(i2.intentId) }))).toEqual([i2.intentId]);
    expect(ids(await search({ byOriginIntentAddress: i3.originIntentAddress }))).toEqual([i3.intentId]);
    expect(ids(await search({ byDestinationIntentAddress: i1.destinationIntentAddress }))).toEqual([
      i1.intentId,
    ]);
  });

  it('finds by a transaction hash of any of the four kinds, and by deposit hash only for deposits', async () => {
    const search = (f: Omit<Parameters<Store['intents']['search']>[0], 'projectId'>) =>
      store.intents.search({ projectId: project.id, ...f });
    expect(ids(await search({ byTransactionHash: hash.i1Deposit }))).toEqual([i1.intentId]);
    expect(ids(await search({ byTransactionHash: upper(hash.i1Origin) }))).toEqual([i1.intentId]);
    expect(ids(await search({ byTransactionHash: hash.i3Dest }))).toEqual([i3.intentId]);
    expect(ids(await search({ byTransactionHash: hash.i3Refund }))).toEqual([i3.intentId]);
    expect(ids(await search({ byDepositTransactionHash: hash.i1Deposit }))).toEqual([i1.intentId]);
    expect(await search({ byDepositTransactionHash: hash.i1Origin })).toEqual([]);
  });

  it('does not match the hash ExecuteIntent named until the engine writes it on the deposit row', async () => {
    // The hash on the intent is a claim (not mined when named, or naming another intent's transaction):
    // only the deposit row, written once the transaction is known to pay the address, is searched.
    const search = (f: Omit<Parameters<Store['intents']['search']>[0], 'projectId'>) =>
      store.intents.search({ projectId: project.id, ...f });
    const claim = randomHash();
    const i4 = await store.intents.insert(newIntent(project.id, { ownerAddress: randomAddress() }));
    await store.intents.updateStatus({
      intentId: i4.intentId,
      to: 'EXECUTING',
      depositTransactionHash: claim,
    });
    expect(await search({ byDepositTransactionHash: claim })).toEqual([]);
    expect(await search({ byTransactionHash: claim })).toEqual([]);
    expect(await search({ byQueryString: claim })).toEqual([]);
    await store.transactions.upsert({
      intentId: i4.intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'SUCCEEDED',
      txnHash: claim,
    });
    expect(ids(await search({ byDepositTransactionHash: claim }))).toEqual([i4.intentId]);
    expect(ids(await search({ byQueryString: claim }))).toEqual([i4.intentId]);
  });

  it('matches a query string against intent ids, addresses and transaction hashes', async () => {
    const q = async (byQueryString: string) =>
      ids(await store.intents.search({ projectId: project.id, byQueryString }));
    expect(await q(i2.intentId)).toEqual([i2.intentId]);
    expect(await q(` ${upper(ownerA)} `)).toEqual(ids([i1, i2]));
    expect(await q(i3.originIntentAddress)).toEqual([i3.intentId]);
    expect(await q(i1.destinationIntentAddress)).toEqual([i1.intentId]);
    expect(await q(hash.i3Refund)).toEqual([i3.intentId]);
    expect(await q(hash.i1Deposit)).toEqual([i1.intentId]);
    expect(await q('not-a-thing')).toEqual([]);
  });

  it('combines filters with AND and returns [] when nothing matches', async () => {
    const s = (f: Omit<Parameters<Store['intents']['search']>[0], 'projectId'>) =>
      store.intents.search({ projectId: project.id, ...f }).then(ids);
    expect(await s({ byOwnerAddress: ownerA, byTransactionHash: hash.i3Dest })).toEqual([]);
    expect(await s({ byOwnerAddress: ownerB, byTransactionHash: hash.i3Dest })).toEqual([i3.intentId]);
    expect(await s({ byOwnerAddress: ownerA, byQueryString: i1.intentId })).toEqual([i1.intentId]);
    expect(await s({ byIntentId: i1.intentId, byOriginIntentAddress: i2.originIntentAddress })).toEqual([]);
    expect(await s({ byIntentId: randomHash() })).toEqual([]);
    expect(await store.intents.search({ projectId: other.id, byTransactionHash: hash.i1Deposit })).toEqual(
      [],
    );
  });
});

const PAGE_TOTAL = 45;
const BASE_MS = Date.UTC(2030, 0, 1);

describeEachDialect('intent history', ({ openStore }) => {
  let store: Store;
  let project: Project;
  let all: IntentRecord[];
  const owners = [randomAddress(), randomAddress()];

  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('history');
    const noise = await store.projects.create('history-noise');
    all = [];
    for (let i = 0; i < PAGE_TOTAL; i++) {
      // Timestamps run against insertion order and come in threes, so createdAt order differs
      // from id order and equal timestamps must be tie-broken by id.
      const createdAt = new Date(BASE_MS + Math.floor((PAGE_TOTAL - 1 - i) / 3) * 1_000);
      const intent = await store.intents.insert(
        newIntent(project.id, {
          createdAt,
          ownerAddress: owners[i % 2],
          originChainId: 10 + (i % 3),
          destinationChainId: 20 + (i % 2),
        }),
      );
      if (i % 5 === 0) await store.intents.updateStatus({ intentId: intent.intentId, to: 'COMMITTED' });
      if (i % 7 === 0) await store.intents.updateStatus({ intentId: intent.intentId, to: 'SUCCEEDED' });
      await store.transactions.upsert({
        intentId: intent.intentId,
        kind: 'deposit',
        chainId: 10,
        status: 'PENDING',
      });
      all.push((await store.intents.get({ projectId: project.id, intentId: intent.intentId }))!);
    }
    await store.intents.insert(newIntent(noise.id, { createdAt: new Date(BASE_MS) }));
  });

  const expectedOrder = (column: PageColumn, order: SortOrder, list = all) => {
    const sorted = [...list].sort((a, b) =>
      column === 'id' ? a.id - b.id : a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id,
    );
    return (order === 'ASC' ? sorted : sorted.reverse()).map((i) => i.intentId);
  };

  for (const column of ['id', 'createdAt'] as const) {
    for (const order of ['ASC', 'DESC'] as const) {
      it(`walks 45 intents by ${column} ${order} in pages of 20, 20, 5 with the cursor sent back verbatim`, async () => {
        let page: Page | undefined = { column, sort: [{ column, order }], pageSize: 20 };
        const sizes: number[] = [];
        const nexts: boolean[] = [];
        const seen: string[] = [];
        while (page) {
          if (sizes.length > PAGE_TOTAL) throw new Error('paging did not end');
          const result = await store.intents.history({ projectId: project.id, page });
          sizes.push(result.intents.length);
          nexts.push(result.nextPage?.more === true);
          seen.push(...result.intents.map((r) => r.intent.intentId));
          expect(result.intents.every((r) => r.transactions.deposit?.status === 'PENDING')).toBe(true);
          // What a client does: JSON out, JSON back in; no nextPage means no more results.
          page = result.nextPage && (JSON.parse(JSON.stringify(result.nextPage)) as Page);
        }
        expect(sizes).toEqual([20, 20, 5]);
        expect(nexts).toEqual([true, true, false]);
        expect(seen).toEqual(expectedOrder(column, order));
      });
    }
  }

  it('defaults to 20 newest first by id, and cuts page sizes above the maximum', async () => {
    const first = await store.intents.history({ projectId: project.id });
    expect(first.intents).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(first.intents.map((r) => r.intent.intentId)).toEqual(
      expectedOrder('id', 'DESC').slice(0, DEFAULT_PAGE_SIZE),
    );
    expect(first.nextPage).toMatchObject({ column: 'id', pageSize: DEFAULT_PAGE_SIZE, more: true });
    const big = await store.intents.history({
      projectId: project.id,
      page: { pageSize: MAX_PAGE_SIZE * 10 },
    });
    expect(big.intents).toHaveLength(PAGE_TOTAL);
    expect(big.nextPage).toBeUndefined();
  });

  it('rejects an unknown column, a bad order, a non-positive page size or a bad cursor', async () => {
    const bad = (page: Page) => store.intents.history({ projectId: project.id, page });
    await expect(bad({ column: 'status' })).rejects.toBeInstanceOf(InvalidPageError);
    await expect(bad({ sort: [{ column: 'id', order: 'SIDEWAYS' }] })).rejects.toThrow('page.sort[0].order');
    await expect(bad({ pageSize: 0 })).rejects.toThrow(/page.pageSize/);
    await expect(bad({ pageSize: 2.5 })).rejects.toThrow(/page.pageSize/);
    await expect(bad({ after: -1 })).rejects.toThrow(/page.after/);
    for (const [page, field] of [
      [{ column: 'updatedAt' }, 'column'],
      [{ sort: [{ column: 'status', order: 'ASC' }] }, 'sort[0].column'],
      [{ column: 'id', sort: [{ column: 'createdAt', order: 'ASC' }] }, 'sort[0].column'],
      [{ before: -3 }, 'before'],
      [{ after: 1, before: 2 }, 'before'],
    ] as const) {
      const error = await bad(page as Page).catch((e: unknown) => e);
      expect(error, JSON.stringify(page)).toBeInstanceOf(InvalidPageError);
      expect((error as InvalidPageError).field).toBe(field);
    }
    await expect(bad({ column: 'updatedAt' })).rejects.toThrow('must be one of the columns id, createdAt');
  });

  for (const column of ['id', 'createdAt'] as const) {
    for (const order of ['ASC', 'DESC'] as const) {
      it(`by ${column} ${order}, before with a page's cursor answers that page; its nextPage goes on back`, async () => {
        const first: Page = { column, sort: [{ column, order }], pageSize: 7 };
        const one = await store.intents.history({ projectId: project.id, page: first });
        const two = await store.intents.history({ projectId: project.id, page: one.nextPage! });
        const { after, ...rest } = two.nextPage!;
        const back = await store.intents.history({
          projectId: project.id,
          page: { ...rest, before: after! },
        });
        const ids = (p: { intents: { intent: { intentId: string } }[] }) =>
          p.intents.map((r) => r.intent.intentId);
        expect(ids(back)).toEqual(ids(two));
        const start = await store.intents.history({ projectId: project.id, page: back.nextPage! });
        expect(ids(start)).toEqual(ids(one));
        expect(start.nextPage).toBeUndefined();
        const index = await store.intents.historyIndex({
          projectId: project.id,
          page: { ...rest, before: after! },
        });
        expect(index.intents.map((i) => i.intentId)).toEqual(ids(two));
        expect(index.nextPage).toEqual(back.nextPage);
      });
    }
  }

  it("takes cursors and chain ids past the id column's range: they match nothing beyond it", async () => {
    const huge = 2 ** 40;
    const newest = await store.intents.history({ projectId: project.id, page: { after: huge, pageSize: 3 } });
    expect(newest.intents.map((r) => r.intent.intentId)).toEqual(expectedOrder('id', 'DESC').slice(0, 3));
    const none = await store.intents.history({
      projectId: project.id,
      page: { after: huge, column: 'createdAt' },
    });
    expect(none.intents).toEqual([]);
    expect(none.nextPage).toBeUndefined();
    const chain = await store.intents.history({ projectId: project.id, originChainId: huge });
    expect(chain.intents).toEqual([]);
  });

  it('filters by owner, statuses (over status), chains and time, AND-ed', async () => {
    const history = async (filter: Omit<Parameters<Store['intents']['history']>[0], 'projectId'>) =>
      (
        await store.intents.history({ projectId: project.id, page: { pageSize: 100 }, ...filter })
      ).intents.map((r) => r.intent.intentId);
    const pick = (pred: (i: IntentRecord) => boolean) => {
      const expected = expectedOrder('id', 'DESC', all.filter(pred));
      expect(expected.length).toBeGreaterThan(0); // each case must select something
      return expected;
    };
    const [ownerA] = owners as [string, string];

    expect(await history({ ownerAddress: ownerA.toUpperCase().replace('0X', '0x') })).toEqual(
      pick((i) => i.ownerAddress === ownerA),
    );
    expect(await history({ status: 'COMMITTED' })).toEqual(pick((i) => i.status === 'COMMITTED'));
    expect(await history({ status: 'QUOTED', statuses: ['SUCCEEDED', 'COMMITTED'] })).toEqual(
      pick((i) => i.status === 'SUCCEEDED' || i.status === 'COMMITTED'),
    );
    expect(await history({ originChainId: 11, destinationChainId: 20 })).toEqual(
      pick((i) => i.originChainId === 11 && i.destinationChainId === 20),
    );
    const from = BASE_MS / 1000 + 3;
    const to = BASE_MS / 1000 + 8;
    expect(await history({ fromTime: from, toTime: to, ownerAddress: ownerA })).toEqual(
      pick(
        (i) =>
          i.createdAt.getTime() >= from * 1000 &&
          i.createdAt.getTime() <= to * 1000 &&
          i.ownerAddress === ownerA,
      ),
    );
    expect(await history({ toTime: BASE_MS / 1000 - 1 })).toEqual([]);
    expect(await history({ ownerAddress: randomAddress() })).toEqual([]);
  });

  it('filters by origin and destination token in any letter case, AND-ed with the rest', async () => {
    const tokens = await store.projects.create('history-tokens');
    const [usdc, dai] = [randomAddress(), randomAddress()];
    const made: IntentRecord[] = [];
    for (const [origin, destination] of [
      [usdc, dai],
      [usdc, usdc],
      [dai, usdc],
    ] as const) {
      made.push(
        await store.intents.insert(
          newIntent(tokens.id, { originTokenAddress: origin, destinationTokenAddress: destination }),
        ),
      );
    }
    const history = async (filter: Omit<Parameters<Store['intents']['history']>[0], 'projectId'>) =>
      (await store.intents.history({ projectId: tokens.id, ...filter })).intents.map(
        (r) => r.intent.intentId,
      );
    const newest = (...n: number[]) => n.map((i) => made[i]!.intentId);
    expect(await history({ originTokenAddress: upper(usdc) })).toEqual(newest(1, 0));
    expect(await history({ destinationTokenAddress: usdc })).toEqual(newest(2, 1));
    expect(await history({ originTokenAddress: usdc, destinationTokenAddress: upper(usdc) })).toEqual(
      newest(1),
    );
    expect(await history({ originTokenAddress: randomAddress() })).toEqual([]);
  });
});
