import { DefaultQueryExecutor } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEachDialect, rawExecute } from '../../test/harness/database.ts';
import { newIntent, randomAddress, randomHash, statementsDuring } from './testing.ts';
import type { Project, Store } from './types.ts';

describeEachDialect('engine journal', ({ openStore, database, dialect }) => {
  let store: Store;
  let project: Project;
  const intentIds: string[] = [];
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('engine');
    for (let i = 0; i < 4; i++) intentIds.push((await store.intents.insert(newIntent(project.id))).intentId);
  });

  it('journals a step once and leases only due work, counting attempts and honouring leases', async () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const intentId = intentIds[0]!;
    const first = await store.steps.enqueue({ intentId, step: 'deposit', runAt: t0 });
    const again = await store.steps.enqueue({ intentId, step: 'deposit', runAt: at(100) });
    expect(again).toEqual(first);
    await store.steps.enqueue({ intentId, step: 'origin', runAt: at(60) });

    const leased = await store.steps.leaseDue({ owner: 'w1', limit: 10, leaseMs: 30_000, now: at(1) });
    expect(leased.map((s) => [s.step, s.attempts, s.leaseOwner])).toEqual([['deposit', 1, 'w1']]);
    // Still leased to w1: nobody else gets it.
    expect(await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 30_000, now: at(10) })).toEqual([]);
    // w1 died: the lease runs out and w2 takes over; the step is now on its second attempt.
    const retaken = await store.steps.leaseDue({ owner: 'w2', limit: 10, leaseMs: 30_000, now: at(40) });
    expect(retaken.map((s) => [s.step, s.attempts, s.leaseOwner])).toEqual([['deposit', 2, 'w2']]);
    expect(await store.steps.complete({ id: first.id, owner: 'w1' })).toEqual({ done: false, leased: [] });
    expect(await store.steps.fail({ id: first.id, owner: 'w2', error: 'rpc timeout', retryAt: at(45) })).toBe(
      true,
    );

    const due = await store.steps.leaseDue({ owner: 'w3', limit: 10, leaseMs: 30_000, now: at(61) });
    expect(due.map((s) => [s.step, s.attempts])).toEqual([
      ['deposit', 3],
      ['origin', 1],
    ]);
    expect(await store.steps.complete({ id: due[0]!.id, owner: 'w3' })).toEqual({ done: true, leased: [] });
    expect(await store.steps.fail({ id: due[1]!.id, owner: 'w3', error: 'reverted: bad call' })).toBe(true);
    expect(await store.steps.leaseDue({ owner: 'w4', limit: 10, leaseMs: 30_000, now: at(10_000) })).toEqual(
      [],
    );
    const journal = await store.steps.list(intentId);
    expect(journal.map((s) => [s.step, s.state, s.lastError])).toEqual([
      ['deposit', 'done', 'rpc timeout'],
      ['origin', 'failed', 'reverted: bad call'],
    ]);
  });

  it('gives two concurrent workers on separate connections disjoint work', async () => {
    const other = await openStore();
    const runAt = new Date('2031-01-01T00:00:00Z');
    for (const intentId of intentIds.slice(1)) {
      for (let n = 0; n < 10; n++) await store.steps.enqueue({ intentId, step: `step-${n}`, runAt });
    }
    const now = new Date(runAt.getTime() + 1);
    for (let round = 0; round < 3; round++) {
      const owners = [`a${round}`, `b${round}`];
      const [a, b] = await Promise.all([
        store.steps.leaseDue({ owner: owners[0]!, limit: 20, leaseMs: 60_000, now }),
        other.steps.leaseDue({ owner: owners[1]!, limit: 20, leaseMs: 60_000, now }),
      ]);
      const ids = [...a!, ...b!].map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      if (round === 0) expect(ids).toHaveLength(30);
      // Hand everything back for the next round.
      await Promise.all(
        [...a!, ...b!].map((s) =>
          store.steps.fail({ id: s.id, owner: s.leaseOwner!, error: 'again', retryAt: runAt }),
        ),
      );
    }
  });

  it('skips rows another transaction holds locked instead of waiting or taking them (Postgres)', async () => {
    if (!store.capabilities.supportsSkipLocked) return; // SQLite has a single writer: nothing to skip.
    const runAt = new Date('2032-01-01T00:00:00Z');
    const now = new Date(runAt.getTime() + 1);
    const intentId = intentIds[0]!;
    const steps = [];
    for (let n = 0; n < 6; n++)
      steps.push(await store.steps.enqueue({ intentId, step: `locked-${n}`, runAt }));
    const locker = new pg.Client({ connectionString: database().options.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      const lockedIds = steps.slice(0, 3).map((s) => s.id);
      await locker.query('SELECT id FROM intent_steps WHERE id = ANY($1) FOR UPDATE', [lockedIds]);
      const leased = await store.steps.leaseDue({ owner: 'skipper', limit: 100, leaseMs: 60_000, now });
      const leasedIds = leased.map((s) => s.id);
      expect(leasedIds.filter((id) => lockedIds.includes(id))).toEqual([]);
      expect(leasedIds).toEqual(expect.arrayContaining(steps.slice(3).map((s) => s.id)));
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it('allocates distinct consecutive nonces under concurrency, never below the chain’s floor', async () => {
    const other = await openStore();
    const address = randomAddress();
    expect(await store.nonces.peek({ chainId: 1, address })).toBeUndefined();
    expect(await store.nonces.allocate({ chainId: 1, address, floor: 5 })).toBe(5);
    expect(
      await store.nonces.allocate({ chainId: 1, address: address.toUpperCase().replace('0X', '0x') }),
    ).toBe(6);
    const concurrent = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).nonces.allocate({ chainId: 1, address })),
    );
    expect([...concurrent].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 7 + i));
    // The chain moved on without us (another wallet used the key): the floor wins.
    expect(await store.nonces.allocate({ chainId: 1, address, floor: 100 })).toBe(100);
    expect(await store.nonces.allocate({ chainId: 1, address, floor: 3 })).toBe(101);
    // Other chains and senders have their own sequences.
    expect(await store.nonces.allocate({ chainId: 2, address })).toBe(0);
    expect(await store.nonces.peek({ chainId: 1, address })).toBe(102);
  });

  it('stores each signed transaction with its nonce atomically, and a failed signing gives the nonce back', async () => {
    const from = randomAddress();
    const intentId = intentIds[1]!;
    const sign = async (nonce: number) => ({
      raw: `0xf8${nonce.toString(16).padStart(4, '0')}`,
      hash: randomHash(),
    });
    const t0 = await store.signedTransactions.allocateAndRecord({
      chainId: 7,
      fromAddress: from,
      purpose: 'origin',
      intentId,
      sign,
    });
    expect(t0).toMatchObject({ nonce: 0, status: 'signed', raw: '0xf80000', purpose: 'origin', intentId });

    await expect(
      store.signedTransactions.allocateAndRecord({
        chainId: 7,
        fromAddress: from,
        purpose: 'fill',
        sign: async () => {
          throw new Error('signer unavailable');
        },
      }),
    ).rejects.toThrow('signer unavailable');
    const t1 = await store.signedTransactions.allocateAndRecord({
      chainId: 7,
      fromAddress: from,
      purpose: 'fill',
      sign,
    });
    expect(t1.nonce).toBe(1);

    await store.signedTransactions.markBroadcast({ hash: t0.hash, at: new Date('2030-01-01T00:00:00Z') });
    await store.signedTransactions.markBroadcast({ hash: t0.hash, at: new Date('2030-01-01T00:05:00Z') });
    expect((await store.signedTransactions.findByHash(t0.hash))?.broadcastAt).toEqual(
      new Date('2030-01-01T00:00:00Z'),
    );
    expect(
      (await store.signedTransactions.listUnconfirmed({ chainId: 7, fromAddress: from })).map((t) => t.nonce),
    ).toEqual([0, 1]);
    await store.signedTransactions.markMined({ hash: t0.hash, status: 'mined' });
    expect((await store.signedTransactions.listUnconfirmed({ chainId: 7 })).map((t) => t.hash)).toEqual([
      t1.hash,
    ]);

    // A replacement (same nonce, re-signed with more gas) is journaled beside the original.
    const bump = await store.signedTransactions.record({
      chainId: 7,
      fromAddress: from,
      nonce: 1,
      raw: '0xf8bump',
      hash: randomHash(),
      purpose: 'fill',
      intentId: null,
    });
    await store.signedTransactions.markReplaced(t1.hash);
    expect((await store.signedTransactions.listUnconfirmed({ chainId: 7 })).map((t) => t.hash)).toEqual([
      bump.hash,
    ]);
    expect((await store.signedTransactions.listForIntent(intentId)).map((t) => t.nonce)).toEqual([0]);
  });

  it('reads of several intents’ journals asked together answer each as alone, in id order', async () => {
    const from = randomAddress();
    const [a, b, c] = [intentIds[2]!, intentIds[3]!, randomHash()];
    const hashes: Record<string, string[]> = { [a]: [], [b]: [] };
    for (const [nonce, intentId] of [a, b, a, b, a].entries()) {
      const hash = randomHash();
      hashes[intentId]!.push(hash);
      await store.signedTransactions.record({
        chainId: 11,
        fromAddress: from,
        nonce,
        raw: `0xf8${nonce}`,
        hash,
        purpose: 'origin',
        intentId,
      });
    }
    const alone = [
      await store.signedTransactions.listForIntent(a),
      await store.signedTransactions.listForIntent(b),
    ];
    const together = await Promise.all(
      [a, b, c, a.toUpperCase().replace('0X', '0x')].map((id) => store.signedTransactions.listForIntent(id)),
    );
    expect(together[0]).toEqual(alone[0]);
    expect(together[1]).toEqual(alone[1]);
    expect(together[3]).toEqual(alone[0]);
    expect(together[2]).toEqual([]);
    expect(together[0]!.map((t) => t.hash)).toEqual(hashes[a]);
    expect(together[1]!.map((t) => t.nonce)).toEqual([1, 3]);
  });

  it('keeps nonces consecutive when signing and recording race', async () => {
    // SQLite serves one process: a second connection in the same process would block the event
    // loop on the first one's write lock, so the race there is between callers of one store.
    const other = store.capabilities.supportsConcurrentWriters ? await openStore() : store;
    const from = randomAddress();
    const sign = async (nonce: number) => ({ raw: `0x${nonce}`, hash: randomHash() });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? store : other).signedTransactions.allocateAndRecord({
          chainId: 9,
          fromAddress: from,
          purpose: 'p',
          sign,
        }),
      ),
    );
    expect(results.map((r) => r.nonce).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i),
    );
    expect(results.every((r) => r.raw === `0x${r.nonce}`)).toBe(true);
  });
  it('signs again with the stored nonce when another writer or the chain moved the sequence', async () => {
    const other = store.capabilities.supportsConcurrentWriters ? await openStore() : store;
    const from = randomAddress();
    const signed: number[] = [];
    const sign = async (nonce: number) => {
      signed.push(nonce);
      return { raw: `0x${nonce}`, hash: randomHash() };
    };
    const send = (nonceFloor?: number) =>
      store.signedTransactions.allocateAndRecord({
        chainId: 11,
        fromAddress: from,
        purpose: 'p',
        sign,
        ...(nonceFloor !== undefined && { nonceFloor }),
      });
    expect((await send()).nonce).toBe(0);
    expect((await send()).nonce).toBe(1);
    // Another process takes nonces 2 and 3 behind this one's back.
    expect(await other.nonces.allocate({ chainId: 11, address: from })).toBe(2);
    expect(await other.nonces.allocate({ chainId: 11, address: from })).toBe(3);
    const afterOther = await send();
    expect(afterOther).toMatchObject({ nonce: 4, raw: '0x4' });
    // The chain is ahead of the sequence (the key was used elsewhere): the floor wins.
    expect((await send(9)).nonce).toBe(9);
    expect((await send()).nonce).toBe(10);
    expect(await store.nonces.peek({ chainId: 11, address: from })).toBe(11);
    const rows = await store.signedTransactions.listAtNonces({
      chainId: 11,
      fromAddress: from,
      fromNonce: 0,
      belowNonce: 100,
    });
    expect(rows.map((r) => [r.nonce, r.raw])).toEqual([
      [0, '0x0'],
      [1, '0x1'],
      [4, '0x4'],
      [9, '0x9'],
      [10, '0x10'],
    ]);
    // Whatever was signed along the way, only the recorded nonces were taken.
    expect(signed).toContain(4);
  });

  it('writes a send’s receipt row with its signature’s record, never naming a hash left unrecorded', async () => {
    const other = store.capabilities.supportsConcurrentWriters ? await openStore() : store;
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const from = randomAddress();
    const send = (
      kind: 'origin' | 'destination',
      sign: (nonce: number) => Promise<{ raw: string; hash: string }>,
    ) =>
      store.signedTransactions.allocateAndRecord({
        chainId: 13,
        fromAddress: from,
        purpose: `${kind}-execute`,
        intentId,
        sign,
        withRecord: (hash) => ({
          intentId,
          kind,
          chainId: 13,
          status: 'RELAYING',
          txnHash: hash,
          from: ['UNKNOWN', 'PENDING', 'RELAYING'],
        }),
      });
    const rowOf = async (kind: string) =>
      (await store.transactions.list(intentId)).find((r) => r.kind === kind);

    const first = await send('origin', async (nonce) => ({ raw: `0x${nonce}`, hash: randomHash() }));
    expect(await rowOf('origin')).toMatchObject({ status: 'RELAYING', txnHash: first.hash });
    expect(
      (await store.eventLog.listAfter({ projectId: project.id, after: 0, limit: 1000 })).at(-1),
    ).toMatchObject({
      intentId,
      transactionKind: 'origin',
      txnHash: first.hash,
    });

    // Another writer takes the next nonce. On Postgres this process signs with the nonce it expected, the
    // statement refuses it (no record, so no row), and the signing it then tries again fails.
    await other.nonces.allocate({ chainId: 13, address: from });
    let signings = 0;
    const signOnceOnly = async (nonce: number) => {
      signings += 1;
      if (signings > 1) throw new Error('signer unavailable');
      return { raw: `0x${nonce}`, hash: randomHash() };
    };
    if (store.capabilities.supportsConcurrentWriters) {
      await expect(send('destination', signOnceOnly)).rejects.toThrow('signer unavailable');
      expect(await rowOf('destination')).toBeUndefined();
    } else {
      // One signing, with the nonce allocated in the transaction: recorded, and its row written.
      const recorded = await send('destination', signOnceOnly);
      expect(await rowOf('destination')).toMatchObject({ status: 'RELAYING', txnHash: recorded.hash });
    }
  });

  it('journals a completed step and its successors together, even when the lease was lost', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const far = new Date('2040-01-01T00:00:00Z');
    const fill = await store.steps.enqueue({ intentId, step: 'fill', runAt: new Date(0) });
    await store.steps.enqueue({ intentId, step: 'destination', runAt: far });
    const [leased] = (
      await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 1, now: new Date(far.getTime() - 1) })
    ).filter((s) => s.id === fill.id);
    expect(leased?.leaseOwner).toBe('w1');
    // A done step's successors: the one already journaled is left as it is, the new one is added.
    const steps = ['destination', 'settle'];
    expect(await store.steps.complete({ id: fill.id, owner: 'w1', enqueue: { intentId, steps } })).toEqual({
      done: true,
      leased: [],
    });
    const journal = await store.steps.list(intentId);
    expect(journal.map((s) => [s.step, s.state])).toEqual([
      ['fill', 'done'],
      ['destination', 'pending'],
      ['settle', 'pending'],
    ]);
    expect(journal[1]!.nextAttemptAt).toEqual(far);
    // A worker that lost its lease does not mark the step done, but what it found next is still journaled.
    const other = (await store.intents.insert(newIntent(project.id))).intentId;
    const step = await store.steps.enqueue({ intentId: other, step: 'fill' });
    expect(
      (await store.steps.complete({ id: step.id, owner: 'nobody', enqueue: { intentId: other, steps } }))
        .done,
    ).toBe(false);
    expect((await store.steps.list(other)).map((s) => [s.step, s.state])).toEqual([
      ['fill', 'pending'],
      ['destination', 'pending'],
      ['settle', 'pending'],
    ]);
  });
  it('commits a send’s mined mark with the completion’s row, whether or not the row moves', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const from = randomAddress();
    const sign = async (nonce: number) => ({ raw: `0x${nonce}`, hash: randomHash() });
    const send = () =>
      store.signedTransactions.allocateAndRecord({
        chainId: 17,
        fromAddress: from,
        purpose: 'o',
        intentId,
        sign,
      });
    const [sent, other] = [await send(), await send()];
    const origin = await store.steps.enqueue({ intentId, step: 'origin', runAt: new Date(0) });
    await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 });
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 17, status: 'RELAYED' });
    // The origin's completion with its SUCCEEDED row, carrying the send's mined mark.
    const completeWith = (hash: string) =>
      store.steps.complete({
        id: origin.id,
        owner: 'w1',
        row: {
          intentId,
          kind: 'origin',
          chainId: 17,
          status: 'SUCCEEDED',
          txnHash: hash,
          from: ['RELAYED'],
          journalMark: { stage: 'mined', status: 'mined', block: 42n, index: 3, hash },
        },
      });
    await completeWith(sent.hash);
    expect((await store.transactions.list(intentId))[0]).toMatchObject({
      status: 'SUCCEEDED',
      txnHash: sent.hash,
    });
    expect(await store.signedTransactions.findByHash(sent.hash)).toMatchObject({
      status: 'mined',
      minedBlock: 42,
      minedIndex: 3,
    });
    // The row is past the move's `from`: it stays, and the mark is written all the same.
    await completeWith(other.hash);
    expect((await store.transactions.list(intentId))[0]?.txnHash).toBe(sent.hash);
    expect((await store.signedTransactions.findByHash(other.hash))?.status).toBe('mined');
  });

  it('commits a receipt row with the completion: moved forward only, notified, lease lost or not', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const origin = await store.steps.enqueue({ intentId, step: 'origin', runAt: new Date(0) });
    await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 });
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 1, status: 'MINING' });
    const woken: string[] = [];
    const unsubscribe = store.events.subscribe(intentId, () => woken.push(intentId));
    const hash = randomHash();
    const { done, leased } = await store.steps.complete({
      id: origin.id,
      owner: 'w1',
      enqueue: { intentId, steps: ['fill'], leaseMs: 60_000 },
      row: { intentId, kind: 'origin', chainId: 1, status: 'SUCCEEDED', txnHash: hash, from: ['MINING'] },
    });
    unsubscribe();
    expect(done).toBe(true);
    expect(leased.map((s) => s.step)).toEqual(['fill']);
    const row = (await store.transactions.list(intentId)).find((t) => t.kind === 'origin');
    expect(row).toMatchObject({ status: 'SUCCEEDED', txnHash: hash });
    expect(woken.length).toBeGreaterThan(0);
    // A row past the move's `from` stays as it is; a completion whose lease was lost still writes its row.
    const other = (await store.intents.insert(newIntent(project.id))).intentId;
    const step = await store.steps.enqueue({ intentId: other, step: 'deposit' });
    await store.transactions.upsert({ intentId: other, kind: 'deposit', chainId: 1, status: 'FAILED' });
    await store.transactions.upsert({ intentId: other, kind: 'origin', chainId: 1, status: 'PENDING' });
    const moves = [
      { kind: 'deposit' as const, status: 'SUCCEEDED' as const, from: ['PENDING' as const] },
      {
        kind: 'origin' as const,
        status: 'RELAYING' as const,
        from: ['UNKNOWN' as const, 'PENDING' as const],
      },
    ];
    for (const move of moves) {
      const result = await store.steps.complete({
        id: step.id,
        owner: 'nobody',
        row: { intentId: other, chainId: 1, ...move },
      });
      expect(result.done).toBe(false);
    }
    const rows = await store.transactions.list(other);
    expect(rows.map((t) => [t.kind, t.status])).toEqual([
      ['deposit', 'FAILED'],
      ['origin', 'RELAYING'],
    ]);
    // The event log has the row's change, as a row written alone would.
    const events = await store.eventLog.listAfter({ projectId: project.id, after: 0, limit: 10_000 });
    expect(
      events.filter((e) => e.intentId === intentId && e.transactionKind === 'origin').map((e) => e.txnHash),
    ).toEqual([null, hash]);
  });

  it('commits the intent’s end with the completion: its rows, then the status, one statement on Postgres', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    const sent = await store.signedTransactions.allocateAndRecord({
      chainId: 17,
      fromAddress: randomAddress(),
      purpose: 'destination-execute',
      intentId,
      sign: async (nonce) => ({ raw: `0x${nonce}`, hash: randomHash() }),
    });
    await store.signedTransactions.markBroadcast({ hash: sent.hash });
    await store.transactions.upsert({ intentId, kind: 'destination', chainId: 17, status: 'RELAYED' });
    const step = await store.steps.enqueue({ intentId, step: 'destination', runAt: new Date(0) });
    await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 });
    const before = await store.eventLog.latest(project.id);
    const woken: string[] = [];
    const unsubscribe = store.events.subscribe(intentId, () => woken.push(intentId));
    const { result, statements } = await statementsDuring(() =>
      store.steps.complete({
        id: step.id,
        owner: 'w1',
        enqueue: { intentId, steps: [] },
        end: {
          intentId,
          to: 'SUCCEEDED',
          rowsBefore: [
            {
              intentId,
              kind: 'destination',
              chainId: 17,
              status: 'SUCCEEDED',
              txnHash: sent.hash,
              from: ['RELAYED'],
              journalMark: { stage: 'mined', status: 'mined', block: 7n, index: 1, hash: sent.hash },
            },
          ],
        },
      }),
    );
    unsubscribe();
    expect(result).toEqual({ done: true, leased: [], ended: true });
    if (store.capabilities.supportsDataModifyingWith) expect(statements).toHaveLength(1);
    expect((await store.steps.list(intentId)).map((s) => s.state)).toEqual(['done']);
    expect((await store.intents.getForEngine(intentId))?.status).toBe('SUCCEEDED');
    expect((await store.transactions.list(intentId))[0]).toMatchObject({
      kind: 'destination',
      status: 'SUCCEEDED',
      txnHash: sent.hash,
    });
    expect(await store.signedTransactions.findByHash(sent.hash)).toMatchObject({
      status: 'mined',
      minedBlock: 7,
    });
    expect(woken.length).toBeGreaterThan(0);
    const changes = async (id: string) =>
      (await store.eventLog.listAfter({ projectId: project.id, after: before, limit: 10_000 }))
        .filter((e) => e.intentId === id)
        .map((e) =>
          e.transactionKind
            ? `${e.transactionKind} ${e.receiptStates[e.transactionKind]}`
            : `intent ${e.status}`,
        );
    expect(await changes(intentId)).toEqual(['destination SUCCEEDED', 'intent SUCCEEDED']);

    // A step whose lease was lost (taken over) still ends the intent: the end never waits on the lease.
    const other = (await store.intents.insert(newIntent(project.id))).intentId;
    await store.intents.updateStatus({ intentId: other, to: 'EXECUTING' });
    const lost = await store.steps.enqueue({ intentId: other, step: 'destination', runAt: new Date(0) });
    await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 });
    const hash = randomHash();
    const refunded = await store.steps.complete({
      id: lost.id,
      owner: 'nobody',
      enqueue: { intentId: other, steps: [] },
      end: {
        intentId: other,
        to: 'REFUNDED',
        rowsBefore: [
          {
            intentId: other,
            kind: 'destination',
            chainId: 17,
            status: 'FAILED',
            txnHash: hash,
            from: ['UNKNOWN'],
          },
          {
            intentId: other,
            kind: 'refund',
            chainId: 17,
            status: 'SUCCEEDED',
            txnHash: hash,
            from: ['UNKNOWN'],
          },
        ],
      },
    });
    expect(refunded).toMatchObject({ done: false, ended: true });
    expect((await store.steps.list(other)).map((s) => [s.state, s.leaseOwner])).toEqual([['running', 'w1']]);
    expect((await store.intents.getForEngine(other))?.status).toBe('REFUNDED');
    expect(await changes(other)).toEqual([
      'intent EXECUTING',
      'destination FAILED',
      'refund SUCCEEDED',
      'intent REFUNDED',
    ]);
  });

  it('commits a send’s journal mark with a completion that has no row, one statement on Postgres', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const sign = async (nonce: number) => ({ raw: `0x${nonce}`, hash: randomHash() });
    const send = () =>
      store.signedTransactions.allocateAndRecord({
        chainId: 18,
        fromAddress: randomAddress(),
        purpose: 'solver-fill',
        intentId,
        sign,
      });
    const fill = await send();
    await store.signedTransactions.markBroadcast({ hash: fill.hash });
    const step = await store.steps.enqueue({ intentId, step: 'fill', runAt: new Date(0) });
    await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 });
    const { result, statements } = await statementsDuring(() =>
      store.steps.complete({
        id: step.id,
        owner: 'w1',
        enqueue: { intentId, steps: ['settle'], leaseMs: 60_000 },
        journalMark: { stage: 'mined', status: 'mined', block: 9n, index: 2, hash: fill.hash },
      }),
    );
    expect(result.done).toBe(true);
    expect(result.leased.map((s) => s.step)).toEqual(['settle']);
    if (store.capabilities.supportsDataModifyingWith) expect(statements).toHaveLength(1);
    expect(await store.signedTransactions.findByHash(fill.hash)).toMatchObject({
      status: 'mined',
      minedBlock: 9,
      minedIndex: 2,
    });
    // A completion whose lease was lost writes its mark all the same (the transaction is mined either way).
    const again = await send();
    const lost = await store.steps.complete({
      id: step.id,
      owner: 'nobody',
      journalMark: { stage: 'mined', status: 'mined', hash: again.hash },
    });
    expect(lost.done).toBe(false);
    expect((await store.signedTransactions.findByHash(again.hash))?.status).toBe('mined');
  });

  it('journals `later` successors pending until their own time, beside the ones leased now', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const origin = await store.steps.enqueue({ intentId, step: 'origin', runAt: new Date(0) });
    const now = new Date();
    const leasedOrigin = (
      await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000, now })
    ).find((s) => s.id === origin.id);
    expect(leasedOrigin?.leaseOwner).toBe('w1');
    const refundAt = new Date(now.getTime() + 3_600_000);
    const { done, leased } = await store.steps.complete({
      id: origin.id,
      owner: 'w1',
      enqueue: {
        intentId,
        steps: ['fill'],
        leaseMs: 60_000,
        later: [{ step: 'order-refund', runAt: refundAt }],
      },
    });
    expect(done).toBe(true);
    expect(leased.map((s) => s.step)).toEqual(['fill']);
    const refund = (await store.steps.list(intentId)).find((s) => s.step === 'order-refund');
    expect([refund?.state, refund?.attempts, refund?.leaseOwner, refund?.nextAttemptAt]).toEqual([
      'pending',
      0,
      null,
      refundAt,
    ]);
    // Not due before its time, due at it.
    const early = await store.steps.leaseDue({
      owner: 'w2',
      limit: 1000,
      leaseMs: 1,
      now: new Date(refundAt.getTime() - 1),
    });
    expect(early.some((s) => s.id === refund?.id)).toBe(false);
    const due = await store.steps.leaseDue({ owner: 'w2', limit: 1000, leaseMs: 1, now: refundAt });
    expect(due.some((s) => s.id === refund?.id)).toBe(true);
  });
  it('leases the successors it journals to the completing worker when asked, and only those', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const origin = await store.steps.enqueue({ intentId, step: 'origin', runAt: new Date(0) });
    await store.steps.enqueue({ intentId, step: 'destination' });
    const leasedOrigin = (await store.steps.leaseDue({ owner: 'w1', limit: 1000, leaseMs: 60_000 })).find(
      (s) => s.id === origin.id,
    );
    expect(leasedOrigin?.leaseOwner).toBe('w1');
    const before = Date.now();
    const { done, leased } = await store.steps.complete({
      id: origin.id,
      owner: 'w1',
      enqueue: { intentId, steps: ['destination', 'fill'], leaseMs: 60_000 },
    });
    expect(done).toBe(true);
    // 'destination' was journaled (and leased by the lease above) before: not inserted, not returned.
    expect(leased.map((s) => [s.step, s.state, s.leaseOwner, s.attempts])).toEqual([
      ['fill', 'running', 'w1', 1],
    ]);
    expect(leased[0]!.leaseUntil!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    // Another worker finds nothing to lease: the fill is held by w1 until its lease runs out.
    const elsewhere = await store.steps.leaseDue({ owner: 'w2', limit: 1000, leaseMs: 60_000 });
    expect(elsewhere.filter((s) => s.intentId === intentId)).toEqual([]);
    const later = new Date(Date.now() + 61_000);
    const afterExpiry = await store.steps.leaseDue({ owner: 'w2', limit: 1000, leaseMs: 1, now: later });
    expect(
      afterExpiry
        .filter((s) => s.intentId === intentId)
        .map((s) => s.step)
        .sort(),
    ).toEqual(['destination', 'fill']);
  });

  it('leases each step with its intent row as getForEngine reads it, where the store reads it in the lease', async () => {
    const withIntent = store.capabilities.supportsLeaseWithIntent;
    const live = (await store.intents.insert(newIntent(project.id, { planJson: '{"route":"x"}' }))).intentId;
    const ended = (await store.intents.insert(newIntent(project.id))).intentId;
    await store.intents.updateStatus({ intentId: ended, to: 'EXECUTING' });
    await store.intents.updateStatus({ intentId: ended, to: 'ABORTED' });
    const runAt = new Date('2033-01-01T00:00:00Z');
    const steps = [
      await store.steps.enqueue({ intentId: live, step: 'deposit', runAt }),
      await store.steps.enqueue({ intentId: ended, step: 'origin', runAt }),
    ];
    const leased = (
      await store.steps.leaseDue({
        owner: 'w1',
        limit: 1000,
        leaseMs: 60_000,
        now: new Date(runAt.getTime() + 1),
      })
    ).filter((s) => steps.some((step) => step.id === s.id));
    expect(leased.map((s) => s.step)).toEqual(['deposit', 'origin']);
    for (const step of leased) {
      if (!withIntent) {
        expect(step.intent).toBeUndefined();
        continue;
      }
      expect(step.intent).toEqual(await store.intents.getForEngine(step.intentId));
    }
    if (withIntent) {
      expect(leased[0]!.intent?.planJson).toBe('{"route":"x"}');
      expect(leased[0]!.intent?.originTokenAmount).toBe(1_000_000n);
      // A terminal intent comes as it is: the runner sees the status and skips the step.
      expect(leased[1]!.intent?.status).toBe('ABORTED');
    }

    // The successors leased at completion carry the intent too, read after the step's own writes.
    await store.intents.updateStatus({ intentId: live, to: 'EXECUTING' });
    const { leased: next } = await store.steps.complete({
      id: leased[0]!.id,
      owner: 'w1',
      enqueue: {
        intentId: live,
        steps: ['origin'],
        leaseMs: 60_000,
        later: [{ step: 'origin-refund', runAt: new Date(runAt.getTime() + 3_600_000) }],
      },
    });
    expect(next.map((s) => s.step)).toEqual(['origin']);
    const read = await store.intents.getForEngine(live);
    expect(read?.status).toBe('EXECUTING');
    if (withIntent) expect(next[0]!.intent).toEqual(read);
    else expect(next[0]!.intent).toBeUndefined();
    // Successors journaled without a lease carry nothing.
    const { leased: none } = await store.steps.complete({
      id: leased[1]!.id,
      owner: 'w1',
      enqueue: { intentId: ended, steps: ['fill'] },
    });
    expect(none).toEqual([]);
  });

  describe("a status move with the intent's steps (ExecuteIntent's start)", () => {
    /** Counts the statements the store sends through Kysely's executor while `write` runs. */
    async function statementsOf<T>(write: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const executor = Object.getPrototypeOf(DefaultQueryExecutor.prototype);
      const spy = vi.spyOn(executor, 'executeQuery');
      try {
        const result = await write();
        return { result, statements: spy.mock.calls.length };
      } finally {
        spy.mockRestore();
      }
    }
    const committed = async () => {
      const { intentId } = await store.intents.insert(newIntent(project.id, { planJson: '{"route":"z"}' }));
      await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
      return intentId;
    };
    /** ExecuteIntent's start; `second` stands in for its `origin-refund` step. */
    const start = (intentId: string, later: Date, second = 'origin-refund') =>
      store.intents.updateStatus({
        intentId,
        to: 'EXECUTING',
        depositTransactionHash: randomHash(),
        rowsAfter: [{ intentId, kind: 'deposit', chainId: 1, status: 'PENDING', from: ['PENDING'] }],
        enqueue: {
          steps: [{ step: 'deposit' }, { step: second, runAt: later }],
          lease: { owner: 'w1', leaseMs: 60_000 },
        },
      });

    it('moves the status, writes the row and journals the steps, the due one leased with the intent as moved', async () => {
      const intentId = await committed();
      const later = new Date(Date.now() + 3_600_000);
      const { result, statements } = await statementsOf(() => start(intentId, later));
      // Postgres: the move, its row, its NOTIFY and the steps' insert are one statement.
      if (dialect === 'postgres') expect(statements).toBe(1);
      expect(result).toMatchObject({ updated: true, status: 'EXECUTING' });
      expect(result.leased?.map((s) => [s.step, s.state, s.attempts, s.leaseOwner])).toEqual([
        ['deposit', 'running', 1, 'w1'],
      ]);
      if (store.capabilities.supportsLeaseWithIntent) {
        // The row as the move left it, not as it was when the statement began.
        expect(result.leased![0]!.intent?.status).toBe('EXECUTING');
        expect(result.leased![0]!.intent).toEqual(await store.intents.getForEngine(intentId));
        expect(result.rowsWritten).toBe(1);
      }
      const journal = await store.steps.list(intentId);
      expect(journal.map((s) => [s.step, s.state, s.leaseOwner])).toEqual([
        ['deposit', 'running', 'w1'],
        ['origin-refund', 'pending', null],
      ]);
      expect(journal[1]!.nextAttemptAt).toEqual(later);
      expect((await store.transactions.list(intentId)).map((r) => [r.kind, r.status])).toEqual([
        ['deposit', 'PENDING'],
      ]);
      // Leased: no other worker's lease takes it.
      const taken = await store.steps.leaseDue({ owner: 'w2', limit: 1000, leaseMs: 60_000 });
      expect(taken.filter((s) => s.intentId === intentId)).toEqual([]);
    });

    it('journals the steps when the status does not move, and leaves steps journaled before as they are', async () => {
      // EXECUTING with no steps journaled: moved by an updateStatus without `enqueue`.
      const intentId = await committed();
      await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
      const later = new Date(Date.now() + 3_600_000);
      const first = await statementsOf(() => start(intentId, later));
      if (dialect === 'postgres') expect(first.statements).toBe(1);
      expect(first.result).toMatchObject({ updated: false, status: 'EXECUTING' });
      expect(first.result.leased?.map((s) => [s.step, s.leaseOwner])).toEqual([['deposit', 'w1']]);
      if (store.capabilities.supportsLeaseWithIntent)
        expect(first.result.leased![0]!.intent).toEqual(await store.intents.getForEngine(intentId));
      // A repeat (a racing ExecuteIntent, the deposit watcher's start): nothing journaled, nothing leased.
      const journal = await store.steps.list(intentId);
      const repeat = await start(intentId, new Date(later.getTime() + 1_000));
      expect(repeat).toMatchObject({ updated: false, status: 'EXECUTING', leased: [] });
      expect(await store.steps.list(intentId)).toEqual(journal);
    });

    it('commits the move, its row and its steps together or not at all', async () => {
      // A step the database refuses, behind the store's back: the insert of the steps fails after the move
      // (SQLite writes them one after another) or inside it (Postgres, one statement).
      const refuse =
        dialect === 'postgres'
          ? [
              `create function refuse_step() returns trigger language plpgsql as $$
               begin raise exception 'step refused'; end $$`,
              `create trigger refuse_step before insert on intent_steps for each row
               when (new.step = 'refused') execute function refuse_step()`,
            ]
          : [
              `create trigger refuse_step before insert on intent_steps when new.step = 'refused'
               begin select raise(abort, 'step refused'); end`,
            ];
      for (const statement of refuse) await rawExecute(database(), statement);
      try {
        const intentId = await committed();
        await expect(start(intentId, new Date(), 'refused')).rejects.toThrow(/step refused/);
        // Nothing of it stands: a crash at that point would have left the same.
        const stored = await store.intents.getForEngine(intentId);
        expect([stored?.status, stored?.depositTransactionHash]).toEqual(['COMMITTED', null]);
        expect(await store.transactions.list(intentId)).toEqual([]);
        expect(await store.steps.list(intentId)).toEqual([]);
        // And the store goes on: the next start of the same intent writes all of it.
        expect(await start(intentId, new Date(Date.now() + 3_600_000))).toMatchObject({
          updated: true,
          status: 'EXECUTING',
        });
        expect((await store.steps.list(intentId)).map((s) => s.step)).toEqual(['deposit', 'origin-refund']);
      } finally {
        await rawExecute(
          database(),
          'drop trigger refuse_step' + (dialect === 'postgres' ? ' on intent_steps' : ''),
        );
      }
    });
  });

  it('journals several steps of an intent in one call, each at its time, leaving one journaled before as it is', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const early = new Date('2034-01-01T00:00:00Z');
    const late = new Date('2034-01-02T00:00:00Z');
    await store.steps.enqueue({ intentId, step: 'deposit', runAt: early });
    await store.steps.enqueueAll({
      intentId,
      steps: [{ step: 'deposit', runAt: late }, { step: 'origin-refund', runAt: late }, { step: 'origin' }],
    });
    const journal = await store.steps.list(intentId);
    expect(journal.map((s) => [s.step, s.state, s.attempts])).toEqual([
      ['deposit', 'pending', 0],
      ['origin-refund', 'pending', 0],
      ['origin', 'pending', 0],
    ]);
    expect(journal[0]!.nextAttemptAt).toEqual(early);
    expect(journal[1]!.nextAttemptAt).toEqual(late);
    expect(journal[2]!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    // Journaled now: created now, whenever it is due.
    expect(journal[1]!.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
    await store.steps.enqueueAll({ intentId, steps: [] });
    expect(await store.steps.list(intentId)).toEqual(journal);
  });
  it('journals the steps due now leased to the caller when asked, leaving later ones pending and one journaled before as it is', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id, { planJson: '{"route":"y"}' })))
      .intentId;
    const before = await store.steps.enqueue({ intentId, step: 'deposit', runAt: new Date(0) });
    const later = new Date(Date.now() + 3_600_000);
    const startedAt = Date.now();
    const leased = await store.steps.enqueueAll({
      intentId,
      steps: [{ step: 'deposit' }, { step: 'origin' }, { step: 'origin-refund', runAt: later }],
      lease: { owner: 'w1', leaseMs: 60_000 },
    });
    expect(leased.map((s) => [s.step, s.state, s.attempts, s.leaseOwner])).toEqual([
      ['origin', 'running', 1, 'w1'],
    ]);
    expect(leased[0]!.leaseUntil!.getTime()).toBeGreaterThanOrEqual(startedAt + 60_000);
    if (store.capabilities.supportsLeaseWithIntent) {
      expect(leased[0]!.intent).toEqual(await store.intents.getForEngine(intentId));
      expect(leased[0]!.intent?.planJson).toBe('{"route":"y"}');
    } else expect(leased[0]!.intent).toBeUndefined();

    const journal = await store.steps.list(intentId);
    expect(journal.map((s) => [s.step, s.state, s.attempts, s.leaseOwner])).toEqual([
      ['deposit', 'pending', 0, null],
      ['origin', 'running', 1, 'w1'],
      ['origin-refund', 'pending', 0, null],
    ]);
    expect(journal[0]).toEqual(before);
    expect(journal[2]!.nextAttemptAt).toEqual(later);
    // Leased: no other worker's lease takes it.
    const taken = await store.steps.leaseDue({ owner: 'w2', limit: 1000, leaseMs: 60_000 });
    expect(taken.filter((s) => s.intentId === intentId).map((s) => s.step)).toEqual(['deposit']);
  });

  it('writes a send’s broadcast mark with the steps it journals, one statement on Postgres', async () => {
    const intentId = (await store.intents.insert(newIntent(project.id))).intentId;
    const fill = await store.signedTransactions.allocateAndRecord({
      chainId: 19,
      fromAddress: randomAddress(),
      purpose: 'solver-fill',
      intentId,
      sign: async (nonce) => ({ raw: `0x${nonce}`, hash: randomHash() }),
    });
    expect(fill.status).toBe('signed');
    const startedAt = Date.now();
    const { result: leased, statements } = await statementsDuring(() =>
      store.steps.enqueueAll({
        intentId,
        steps: [{ step: 'destination' }],
        lease: { owner: 'w1', leaseMs: 60_000 },
        journalMark: { stage: 'broadcast', hash: fill.hash },
      }),
    );
    expect(statements).toHaveLength(store.capabilities.supportsDataModifyingWith ? 1 : 2);
    expect(leased.map((s) => [s.step, s.state, s.leaseOwner])).toEqual([['destination', 'running', 'w1']]);
    const marked = await store.signedTransactions.findByHash(fill.hash);
    expect(marked?.status).toBe('broadcast');
    expect(marked?.broadcastAt?.getTime()).toBeGreaterThanOrEqual(startedAt);
    // The step is journaled no earlier than the mark: a destination step never reads the fill as only signed.
    const [destination] = await store.steps.list(intentId);
    expect(destination?.createdAt.getTime()).toBeGreaterThanOrEqual(marked!.broadcastAt!.getTime());

    // Again (the fill step run again resumes the fill and hands the mark over again): the step journaled
    // before is left as it is, and so is the first broadcast time; without a lease the mark still rides.
    const again = await store.steps.enqueueAll({
      intentId,
      steps: [{ step: 'destination' }],
      journalMark: { stage: 'broadcast', hash: fill.hash, at: new Date(startedAt + 3_600_000) },
    });
    expect(again).toEqual([]);
    expect(await store.signedTransactions.findByHash(fill.hash)).toEqual(marked);
    expect(await store.steps.list(intentId)).toEqual([destination]);
  });
});
