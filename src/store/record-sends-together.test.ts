/**
 * Sends of one key that queue behind its statement in flight are recorded together on Postgres
 * (allocate-and-record-postgres.ts, record-sends-postgres.ts). On either store the outcome is the
 * same as one at a time: consecutive nonces in the order asked, each send's receipt row written with its
 * record and announced, a failed signing or a refused row failing that send alone.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress, randomHash, statementsDuring } from './testing.ts';
import type { Project, RowAdvance, Store } from './types.ts';

/** Sends asked for at once behind the first: enough to show they share a statement. */
const QUEUED_SENDS = 6;

describeEachDialect('sends recorded together', ({ openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('sends together');
  });

  const relaying = (intentId: string) => (hash: string) =>
    ({
      intentId,
      kind: 'origin',
      chainId: 21,
      status: 'RELAYING',
      txnHash: hash,
      from: ['UNKNOWN', 'PENDING', 'RELAYING'],
    }) satisfies RowAdvance;
  const signWith = (signed: number[]) => async (nonce: number) => {
    signed.push(nonce);
    return { raw: `0x${nonce}`, hash: randomHash() };
  };

  it('records sends queued on one key with consecutive nonces, each with its receipt row, announced', async () => {
    const from = randomAddress();
    const intents = await Promise.all(
      Array.from(
        { length: QUEUED_SENDS + 1 },
        async () => (await store.intents.insert(newIntent(project.id))).intentId,
      ),
    );
    const signed: number[] = [];
    const send = (intentId: string) =>
      store.signedTransactions.allocateAndRecord({
        chainId: 21,
        fromAddress: from,
        purpose: 'origin-execute',
        intentId,
        sign: signWith(signed),
        withRecord: relaying(intentId),
      });
    // The key's first send in this process tells it the next nonce.
    await send(intents[0]!);
    const other = store.capabilities.supportsConcurrentWriters ? await openStore() : store;
    const heard = new Set<string>();
    const offs = intents.slice(1).map((id) => other.events.subscribe(id, () => heard.add(id)));
    const woken = new Set<string>();
    const ownOffs = intents.slice(1).map((id) => store.events.subscribe(id, () => woken.add(id)));

    const { result: sent, statements } = await statementsDuring(() =>
      Promise.all(intents.slice(1).map(send)),
    );

    expect(sent.map((t) => t.nonce)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sent.map((t) => t.raw)).toEqual(['0x1', '0x2', '0x3', '0x4', '0x5', '0x6']);
    // The first went alone; the five queued behind it shared one statement.
    if (store.capabilities.supportsDataModifyingWith) expect(statements).toHaveLength(2);
    for (const [i, t] of sent.entries()) {
      const intentId = intents[i + 1]!;
      expect(t).toMatchObject({ intentId, status: 'signed', purpose: 'origin-execute' });
      expect(await store.signedTransactions.findByHash(t.hash)).toMatchObject({ nonce: t.nonce, intentId });
      expect((await store.transactions.list(intentId))[0]).toMatchObject({
        kind: 'origin',
        status: 'RELAYING',
        txnHash: t.hash,
      });
    }
    expect(await store.nonces.peek({ chainId: 21, address: from })).toBe(7);
    expect([...woken].sort()).toEqual(intents.slice(1).sort());
    // Another process hears each row's change (NOTIFY on Postgres).
    const deadline = Date.now() + 5_000;
    while (heard.size < QUEUED_SENDS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect([...heard].sort()).toEqual(intents.slice(1).sort());
    for (const off of [...offs, ...ownOffs]) off();
  });

  it('fails a queued send whose signing fails or whose row is refused alone; the others stay consecutive', async () => {
    const from = randomAddress();
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const signed: number[] = [];
    const send = (options: { failSigning?: boolean; row?: (hash: string) => RowAdvance } = {}) =>
      store.signedTransactions.allocateAndRecord({
        chainId: 23,
        fromAddress: from,
        purpose: 'fill',
        intentId,
        sign: options.failSigning
          ? async () => {
              throw new Error('signer unavailable');
            }
          : signWith(signed),
        ...(options.row && { withRecord: options.row }),
      });
    await send();
    // A receipt row for an intent that does not exist: the database refuses it.
    const unknownIntent = randomHash();
    const outcomes = await Promise.allSettled([
      send(),
      send(),
      send({ failSigning: true }),
      send({ row: relaying(unknownIntent) }),
      send(),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('signer unavailable');
    const recorded = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const journal = await store.signedTransactions.listAtNonces({
      chainId: 23,
      fromAddress: from,
      fromNonce: 0,
      belowNonce: 100,
    });
    // No nonce skipped on Postgres: the refused send's nonce went to the next one. (SQLite records the
    // transaction before its row and keeps it when the row fails.)
    if (store.capabilities.supportsDataModifyingWith) {
      expect(recorded.map((t) => t.nonce)).toEqual([1, 2, 3]);
      expect(journal.map((t) => t.nonce)).toEqual([0, 1, 2, 3]);
    } else {
      expect(recorded.map((t) => t.nonce)).toEqual([1, 2, 4]);
    }
    expect(await store.transactions.list(unknownIntent)).toEqual([]);
  });

  it('signs the queued sends again after another process took the next nonce', async () => {
    // SQLite serves one process (its allocation runs inside one transaction): no other writer to race.
    const racing = store.capabilities.supportsConcurrentWriters;
    const other = racing ? await openStore() : store;
    const from = randomAddress();
    const signed: number[] = [];
    let intruded = false;
    const sign = async (nonce: number) => {
      signed.push(nonce);
      // While the queued sends are being signed, another process takes the first nonce they expect.
      if (racing && nonce === 2 && !intruded) {
        intruded = true;
        await other.nonces.allocate({ chainId: 25, address: from });
      }
      return { raw: `0x${nonce}`, hash: randomHash() };
    };
    const send = () =>
      store.signedTransactions.allocateAndRecord({ chainId: 25, fromAddress: from, purpose: 'p', sign });
    await send();
    // A turn for the key's queue to empty, so the next four go as one alone and three together.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = await Promise.all([send(), send(), send(), send()]);
    if (racing) {
      // 1 alone; 2, 3 and 4 refused together (2 was taken); signed again as 3, 4 and 5.
      expect(signed).toEqual([0, 1, 2, 3, 4, 3, 4, 5]);
      expect(sent.map((t) => t.nonce)).toEqual([1, 3, 4, 5]);
    } else expect(sent.map((t) => t.nonce)).toEqual([1, 2, 3, 4]);
    expect(sent.every((t) => t.raw === `0x${t.nonce}`)).toBe(true);
    expect(await store.nonces.peek({ chainId: 25, address: from })).toBe(racing ? 6 : 5);
  });
});
