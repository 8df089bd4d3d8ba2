/**
 * The journal's side of restoring lost transactions (src/chains/restore-lost-transactions.ts): where a row
 * was mined, sending a mined row again (back to `broadcast`, its first block kept), and a key's highest
 * nonce among rows mined once.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { randomAddress, randomHash } from './testing.ts';
import type { Store } from './types.ts';

describeEachDialect('signed transactions: mined blocks and restores', ({ openStore }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore();
  });

  const signAt = (from: string) => () =>
    store.signedTransactions.allocateAndRecord({
      chainId: 9,
      fromAddress: from,
      purpose: 'restore-test',
      sign: async () => ({ raw: '0xf8raw', hash: randomHash() }),
    });

  it('records the block, sends a mined row again keeping it, and finds the highest mined nonce', async () => {
    const from = randomAddress();
    const sign = signAt(from);
    expect(
      await store.signedTransactions.highestMinedNonce({ chainId: 9, fromAddress: from }),
    ).toBeUndefined();
    const [t0, t1, t2] = [await sign(), await sign(), await sign()];
    await store.signedTransactions.markMined({ hash: t0!.hash, status: 'mined', block: 41n, index: 2 });
    await store.signedTransactions.markMined({ hash: t1!.hash, status: 'failed', block: 42, index: 0 });
    await store.signedTransactions.markBroadcast({ hash: t2!.hash });
    expect(await store.signedTransactions.findByHash(t0!.hash)).toMatchObject({
      minedBlock: 41,
      minedIndex: 2,
    });
    expect(await store.signedTransactions.findByHash(t2!.hash)).toMatchObject({ minedBlock: null });
    // The broadcast row at nonce 2 was never mined: 1 is the highest.
    expect(await store.signedTransactions.highestMinedNonce({ chainId: 9, fromAddress: from })).toBe(1);

    await store.signedTransactions.markResent(t1!.hash);
    await store.signedTransactions.markResent(t2!.hash); // not mined: left alone
    expect(await store.signedTransactions.findByHash(t1!.hash)).toMatchObject({
      status: 'broadcast',
      minedBlock: 42,
      minedIndex: 0,
    });
    expect((await store.signedTransactions.findByHash(t2!.hash))?.status).toBe('broadcast');
    // Being sent again still counts as mined once (a restore interrupted by a crash resumes it).
    expect(await store.signedTransactions.highestMinedNonce({ chainId: 9, fromAddress: from })).toBe(1);

    await store.signedTransactions.markMined({ hash: t1!.hash, status: 'mined', block: 7, index: 1 });
    expect(await store.signedTransactions.findByHash(t1!.hash)).toMatchObject({
      status: 'mined',
      minedBlock: 7,
      minedIndex: 1,
    });
    expect(
      await store.signedTransactions.highestMinedNonce({ chainId: 9, fromAddress: randomAddress() }),
    ).toBe(undefined);
  });
});
