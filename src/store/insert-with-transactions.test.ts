import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress } from './testing.ts';
import type { Project, Store } from './types.ts';

describeEachDialect('intent insert with its transaction rows', ({ openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('insert-with-transactions');
  });

  it('stores the intent and its rows together, as upsert would have written them', async () => {
    const owner = randomAddress();
    const input = newIntent(project.id, { ownerAddress: owner });
    const rows = [
      { kind: 'deposit', chainId: 1, status: 'UNKNOWN', fromAddress: owner, tokenAmount: 5n },
      { kind: 'origin', chainId: 1, status: 'UNKNOWN', toAddress: randomAddress() },
      { kind: 'destination', chainId: 2, status: 'UNKNOWN', tokenAddress: randomAddress() },
    ] as const;
    await store.intents.insert({ ...input, transactions: [...rows] });

    const viaUpsert = newIntent(project.id, { ownerAddress: owner });
    await store.intents.insert(viaUpsert);
    for (const row of rows) await store.transactions.upsert({ ...row, intentId: viaUpsert.intentId });

    const strip = (list: Awaited<ReturnType<Store['transactions']['list']>>) =>
      list.map(({ id: _id, intentId: _intent, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    const together = await store.transactions.list(input.intentId);
    expect(together.map((t) => t.kind)).toEqual(['deposit', 'origin', 'destination']);
    expect(strip(together)).toEqual(strip(await store.transactions.list(viaUpsert.intentId)));
    expect(together[0]?.tokenAmount).toBe(5n);
  });

  it('stores nothing when a row is refused: the intent and its rows are one transaction', async () => {
    const input = newIntent(project.id);
    const bad = { kind: 'deposit', chainId: 1, status: 'UNKNOWN' } as const;
    // Two rows of one kind break the (intent, kind) key.
    await expect(store.intents.insert({ ...input, transactions: [bad, bad] })).rejects.toThrow();
    expect(await store.intents.get({ projectId: project.id, intentId: input.intentId })).toBeUndefined();
    expect(await store.transactions.list(input.intentId)).toEqual([]);
  });
});
