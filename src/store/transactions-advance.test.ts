import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomHash } from './testing.ts';
import type { Project, Store } from './types.ts';

describeEachDialect('transactions.advance', ({ openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('advance');
  });

  const freshIntent = async () => (await store.intents.insert(newIntent(project.id))).intentId;

  it('inserts a missing row, and moves a row forward while its status is one it may move from', async () => {
    const intentId = await freshIntent();
    const inserted = await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'PENDING',
      from: ['UNKNOWN', 'PENDING'],
    });
    expect(inserted?.status).toBe('PENDING');
    const hash = randomHash();
    const moved = await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'SUCCEEDED',
      txnHash: hash,
      from: ['UNKNOWN', 'PENDING', 'MINING'],
    });
    expect(moved).toMatchObject({ status: 'SUCCEEDED', txnHash: hash.toLowerCase() });
  });

  it('leaves a row whose status is not in `from` as it was, and says so', async () => {
    const intentId = await freshIntent();
    const hash = randomHash();
    await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'SUCCEEDED',
      txnHash: hash,
    });
    // A late PENDING write (ExecuteIntent racing the deposit step) must not move it back.
    const late = await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'PENDING',
      txnHash: null,
      from: ['UNKNOWN', 'PENDING'],
    });
    expect(late).toBeUndefined();
    const [row] = await store.transactions.list(intentId);
    expect(row).toMatchObject({ kind: 'deposit', status: 'SUCCEEDED', txnHash: hash.toLowerCase() });
  });

  it('refuses an empty `from`: a caller bug, not a silent no-op', async () => {
    const intentId = await freshIntent();
    await expect(
      store.transactions.advance({ intentId, kind: 'origin', chainId: 1, status: 'PENDING', from: [] }),
    ).rejects.toThrow(RangeError);
  });
});
