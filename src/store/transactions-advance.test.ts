import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress, randomHash } from './testing.ts';
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

  describe("with the sender's journal mark (one statement on Postgres)", () => {
    /** A signed transaction of the intent, as allocateAndRecord journals it before the broadcast. */
    const signedFor = (intentId: string) =>
      store.signedTransactions.allocateAndRecord({
        chainId: 5,
        fromAddress: randomAddress(),
        purpose: 'origin-execute',
        intentId,
        sign: async () => ({ raw: '0xf8', hash: randomHash() }),
      });
    const relayed = (intentId: string, hash: string) => ({
      intentId,
      kind: 'origin' as const,
      chainId: 5,
      status: 'RELAYED' as const,
      txnHash: hash,
      from: ['UNKNOWN', 'PENDING', 'RELAYING', 'RELAYED'] as const,
    });

    it('moves the row and marks the transaction broadcast together; a second mark keeps the first time', async () => {
      const intentId = await freshIntent();
      const tx = await signedFor(intentId);
      const heard: string[] = [];
      const off = store.events.subscribe(intentId, (id) => heard.push(id));
      const first = new Date('2031-01-01T00:00:00Z');
      const moved = await store.transactions.advance({
        ...relayed(intentId, tx.hash),
        journalMark: { stage: 'broadcast', hash: tx.hash, at: first },
      });
      expect(moved).toMatchObject({ status: 'RELAYED', txnHash: tx.hash.toLowerCase() });
      expect(await store.signedTransactions.findByHash(tx.hash)).toMatchObject({
        status: 'broadcast',
        broadcastAt: first,
      });
      // Waiters hear the move as they do without a mark.
      await expect.poll(() => heard).toContain(intentId.toLowerCase());
      off();
      // A resumed send reports the stage again: the row stays, the first broadcast time is kept.
      await store.transactions.advance({
        ...relayed(intentId, tx.hash),
        journalMark: { stage: 'broadcast', hash: tx.hash, at: new Date('2031-01-01T00:05:00Z') },
      });
      expect((await store.signedTransactions.findByHash(tx.hash))?.broadcastAt).toEqual(first);
      expect((await store.signedTransactions.listUnconfirmed({ chainId: 5 })).map((t) => t.hash)).toContain(
        tx.hash.toLowerCase(),
      );
    });

    it('marks the transaction mined where it was mined, with the row moved to MINING', async () => {
      const intentId = await freshIntent();
      const tx = await signedFor(intentId);
      await store.signedTransactions.markBroadcast({ hash: tx.hash });
      const at = new Date('2031-02-01T00:00:00Z');
      const moved = await store.transactions.advance({
        ...relayed(intentId, tx.hash),
        status: 'MINING',
        from: ['UNKNOWN', 'PENDING', 'RELAYING', 'RELAYED', 'MINING'],
        journalMark: { stage: 'mined', hash: tx.hash, status: 'failed', at, block: 1234n, index: 3 },
      });
      expect(moved?.status).toBe('MINING');
      expect(await store.signedTransactions.findByHash(tx.hash)).toMatchObject({
        status: 'failed',
        minedAt: at,
        minedBlock: 1234,
        minedIndex: 3,
      });
      expect(
        (await store.signedTransactions.listUnconfirmed({ chainId: 5 })).map((t) => t.hash),
      ).not.toContain(tx.hash.toLowerCase());
    });

    it('marks the transaction even when the row refuses the move: the journal records what was sent', async () => {
      const intentId = await freshIntent();
      const tx = await signedFor(intentId);
      // The row is final already (given up, or written SUCCEEDED by the step): a late stage does not move it.
      await store.transactions.upsert({ intentId, kind: 'origin', chainId: 5, status: 'FAILED' });
      const refused = await store.transactions.advance({
        ...relayed(intentId, tx.hash),
        journalMark: { stage: 'broadcast', hash: tx.hash },
      });
      expect(refused).toBeUndefined();
      expect((await store.transactions.list(intentId))[0]).toMatchObject({ status: 'FAILED', txnHash: null });
      expect((await store.signedTransactions.findByHash(tx.hash))?.status).toBe('broadcast');
      await store.transactions.advance({
        ...relayed(intentId, tx.hash),
        status: 'MINING',
        from: ['UNKNOWN', 'PENDING', 'RELAYING', 'RELAYED', 'MINING'],
        journalMark: { stage: 'mined', hash: tx.hash, status: 'mined', block: 7, index: 0 },
      });
      expect(await store.signedTransactions.findByHash(tx.hash)).toMatchObject({
        status: 'mined',
        minedBlock: 7,
      });
      expect((await store.transactions.list(intentId))[0]?.status).toBe('FAILED');
    });
  });
});
