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

  it('with onlyWithoutMeta, writes meta once: a second write leaves the stored meta and row as they were', async () => {
    const intentId = await freshIntent();
    const write = (permit: string) =>
      store.transactions.advance({
        intentId,
        kind: 'deposit',
        chainId: 1,
        status: 'PENDING',
        meta: { depositIntentEntry: { permitSignature: permit } },
        from: ['UNKNOWN', 'PENDING'],
        onlyWithoutMeta: true,
      });
    // The quote's UNKNOWN row, without meta: written.
    await store.transactions.upsert({ intentId, kind: 'deposit', chainId: 1, status: 'UNKNOWN' });
    expect((await write('0x01'))?.meta).toEqual({ depositIntentEntry: { permitSignature: '0x01' } });
    expect(await write('0x02')).toBeUndefined();
    const [row] = await store.transactions.list(intentId);
    expect(row?.meta).toEqual({ depositIntentEntry: { permitSignature: '0x01' } });
    // Without the flag the same write replaces it (the flag is what protects the entry).
    await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'PENDING',
      meta: { depositIntentEntry: { permitSignature: '0x03' } },
      from: ['UNKNOWN', 'PENDING'],
    });
    expect((await store.transactions.list(intentId))[0]?.meta).toEqual({
      depositIntentEntry: { permitSignature: '0x03' },
    });
  });
});
