import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomHash } from './testing.ts';
import type { IntentEventRecord, Project, Store, TransactionKind, TransactionStatus } from './types.ts';

describeEachDialect('event log', ({ dialect, openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('events');
  });

  const all = (projectId = project.id, after = 0) =>
    store.eventLog.listAfter({ projectId, after, limit: 1000 });
  const newer = async (since: number) => all(project.id, since);

  it('a quote is not an event; each status move and receipt status change is one, with the states after it', async () => {
    const before = await store.eventLog.latest(project.id);
    const intent = await store.intents.insert({
      ...newIntent(project.id),
      transactions: [
        { kind: 'deposit', chainId: 1, status: 'UNKNOWN' },
        { kind: 'origin', chainId: 1, status: 'UNKNOWN' },
        { kind: 'destination', chainId: 2, status: 'UNKNOWN' },
      ],
    });
    expect(await newer(before)).toEqual([]);
    const { intentId } = intent;

    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const hash = randomHash();
    await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'PENDING',
      txnHash: hash,
      from: ['UNKNOWN'],
    });
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    await store.transactions.upsert({ intentId, kind: 'deposit', chainId: 1, status: 'SUCCEEDED' });

    const events = await newer(before);
    expect(events.map((e) => e.seq)).toEqual([before + 1, before + 2, before + 3, before + 4]);
    expect(events.map(shape)).toEqual([
      { kind: null, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN', null] },
      { kind: 'deposit', status: 'COMMITTED', states: ['PENDING', 'UNKNOWN', 'UNKNOWN', null] },
      { kind: null, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN', null] },
      { kind: 'deposit', status: 'EXECUTING', states: ['SUCCEEDED', 'UNKNOWN', 'UNKNOWN', null] },
    ]);
    expect(events[1]).toMatchObject({
      intentId,
      ownerAddress: intent.ownerAddress,
      projectId: project.id,
      chainId: 1,
      txnHash: hash.toLowerCase(),
    });
    expect(await store.eventLog.latest(project.id)).toBe(before + 4);
  });

  it('a write that changes no status is no event: a refused move, a hash without a new status, a repeat', async () => {
    const { intentId } = await store.intents.insert(newIntent(project.id));
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    const before = await store.eventLog.latest(project.id);
    // Backwards: refused by the store, so nothing changed.
    expect((await store.intents.updateStatus({ intentId, to: 'COMMITTED' })).updated).toBe(false);
    // A receipt row appearing at UNKNOWN leaves the states as they were (absent reads UNKNOWN).
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 1, status: 'UNKNOWN' });
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 1, status: 'RELAYING' });
    // The same status again with a hash: the row changed, its status did not.
    await store.transactions.advance({
      intentId,
      kind: 'origin',
      chainId: 1,
      status: 'RELAYING',
      txnHash: randomHash(),
      from: ['UNKNOWN', 'RELAYING'],
    });
    // An advance the row is past: no write at all.
    await store.transactions.advance({
      intentId,
      kind: 'origin',
      chainId: 1,
      status: 'PENDING',
      from: ['UNKNOWN'],
    });
    const events = await newer(before);
    expect(events.map(shape)).toEqual([
      { kind: 'origin', status: 'EXECUTING', states: ['UNKNOWN', 'RELAYING', 'UNKNOWN', null] },
    ]);
  });

  it('a refund row is an event as soon as it appears (the states grow a fourth entry)', async () => {
    const { intentId } = await store.intents.insert(newIntent(project.id));
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const before = await store.eventLog.latest(project.id);
    await store.transactions.upsert({ intentId, kind: 'refund', chainId: 1, status: 'UNKNOWN' });
    await store.intents.updateStatus({ intentId, to: 'REFUNDED' });
    expect((await newer(before)).map(shape)).toEqual([
      { kind: 'refund', status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
      { kind: null, status: 'REFUNDED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
    ]);
  });

  it('a status move with receipt rows: their events in the order asked (rows before, the status, rows after)', async () => {
    const { intentId } = await store.intents.insert(
      newIntent(project.id, {
        transactions: [
          { kind: 'deposit', chainId: 1, status: 'UNKNOWN' },
          { kind: 'destination', chainId: 2, status: 'UNKNOWN' },
        ],
      }),
    );
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const row = (kind: TransactionKind, status: TransactionStatus, from: TransactionStatus[]) => ({
      intentId,
      kind,
      chainId: 2,
      status,
      from,
    });
    const before = await store.eventLog.latest(project.id);
    await store.intents.updateStatus({
      intentId,
      to: 'EXECUTING',
      rowsAfter: [row('deposit', 'PENDING', ['UNKNOWN', 'PENDING'])],
    });
    await store.intents.updateStatus({
      intentId,
      to: 'REFUNDED',
      rowsBefore: [
        row('destination', 'FAILED', ['UNKNOWN', 'PENDING', 'RELAYING', 'RELAYED', 'MINING']),
        row('refund', 'SUCCEEDED', ['UNKNOWN', 'PENDING', 'RELAYING', 'RELAYED', 'MINING']),
      ],
    });
    const events = await newer(before);
    expect(events.map(changed)).toEqual([
      'intent EXECUTING',
      'deposit PENDING',
      'destination FAILED',
      'refund SUCCEEDED',
      'intent REFUNDED',
    ]);
    // SQLite writes one statement per change, so each event holds the states just after its own change.
    // Postgres writes each call as one statement, its events made as it ends: each holds the states after
    // the whole statement (no reader could see one in between).
    const executing = ['PENDING', 'UNKNOWN', 'UNKNOWN', null];
    const refunded = ['PENDING', 'UNKNOWN', 'FAILED', 'SUCCEEDED'];
    expect(events.map((e) => [e.status, shape(e).states])).toEqual(
      dialect === 'postgres'
        ? [
            ['EXECUTING', executing],
            ['EXECUTING', executing],
            ['REFUNDED', refunded],
            ['REFUNDED', refunded],
            ['REFUNDED', refunded],
          ]
        : [
            ['EXECUTING', ['UNKNOWN', 'UNKNOWN', 'UNKNOWN', null]],
            ['EXECUTING', executing],
            ['EXECUTING', ['PENDING', 'UNKNOWN', 'FAILED', null]],
            ['EXECUTING', refunded],
            ['REFUNDED', refunded],
          ],
    );
  });

  it('numbers are per project: each project counts 1, 2, 3… on its own', async () => {
    const other = await store.projects.create('events-other');
    expect(await store.eventLog.latest(other.id)).toBe(0);
    const mine = await store.eventLog.latest(project.id);
    const a = await store.intents.insert(newIntent(other.id));
    const b = await store.intents.insert(newIntent(project.id));
    await store.intents.updateStatus({ intentId: a.intentId, to: 'COMMITTED' });
    await store.intents.updateStatus({ intentId: b.intentId, to: 'COMMITTED' });
    await store.intents.updateStatus({ intentId: a.intentId, to: 'ABORTED' });
    expect((await all(other.id)).map((e) => [e.seq, e.intentId, e.status])).toEqual([
      [1, a.intentId, 'COMMITTED'],
      [2, a.intentId, 'ABORTED'],
    ]);
    expect((await newer(mine)).map((e) => [e.seq, e.intentId])).toEqual([[mine + 1, b.intentId]]);
  });

  describe('writers in several processes at once', () => {
    it('a reader following the log sees every event once, in number order, never a later one before an earlier', async () => {
      // Two stores stand for two processes on Postgres (one on SQLite, which has one writer).
      const writers = dialect === 'postgres' ? [store, await openStore(), await openStore()] : [store];
      const concurrent = await store.projects.create('events-concurrent');
      const intents = await Promise.all(
        Array.from({ length: 12 }, () => store.intents.insert(newIntent(concurrent.id))),
      );
      const seen: IntentEventRecord[] = [];
      let writing = true;
      const reader = (async () => {
        let cursor = 0;
        for (;;) {
          // Taken before the read: only a read begun after the last write returned must see every event (a
          // read in flight when it returned may have started before its commit).
          const written = !writing;
          const page = await all(concurrent.id, cursor);
          for (const event of page) {
            // Numbers have no gaps, and commit in number order: a reader never sees n + 2 before n + 1.
            expect(event.seq).toBe(cursor + 1);
            cursor = event.seq;
            seen.push(event);
          }
          if (written && page.length === 0) return cursor;
        }
      })();
      // Every intent moves through its statuses and receipt rows, the intents interleaved across the writers.
      await Promise.all(
        intents.map(async ({ intentId }, i) => {
          const w = writers[i % writers.length]!;
          await w.intents.updateStatus({ intentId, to: 'COMMITTED' });
          for (const status of ['PENDING', 'SUCCEEDED'] as const)
            await w.transactions.advance({
              intentId,
              kind: 'deposit',
              chainId: 1,
              status,
              from: ['UNKNOWN', 'PENDING'],
            });
          await w.intents.updateStatus({ intentId, to: 'EXECUTING' });
          for (const status of ['RELAYING', 'MINING', 'SUCCEEDED'] as const)
            await w.transactions.advance({
              intentId,
              kind: 'origin',
              chainId: 1,
              status,
              from: ['UNKNOWN', 'RELAYING', 'MINING'],
            });
          await w.intents.updateStatus({ intentId, to: 'SUCCEEDED' });
        }),
      );
      writing = false;
      const last = await reader;
      expect(last).toBe(intents.length * 8);
      // Each intent's own events tell its story in order, each carrying the states of the changes before it.
      for (const { intentId } of intents) {
        const story = seen.filter((e) => e.intentId === intentId).map(shape);
        expect(story).toEqual([
          { kind: null, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN', null] },
          { kind: 'deposit', status: 'COMMITTED', states: ['PENDING', 'UNKNOWN', 'UNKNOWN', null] },
          { kind: 'deposit', status: 'COMMITTED', states: ['SUCCEEDED', 'UNKNOWN', 'UNKNOWN', null] },
          { kind: null, status: 'EXECUTING', states: ['SUCCEEDED', 'UNKNOWN', 'UNKNOWN', null] },
          { kind: 'origin', status: 'EXECUTING', states: ['SUCCEEDED', 'RELAYING', 'UNKNOWN', null] },
          { kind: 'origin', status: 'EXECUTING', states: ['SUCCEEDED', 'MINING', 'UNKNOWN', null] },
          { kind: 'origin', status: 'EXECUTING', states: ['SUCCEEDED', 'SUCCEEDED', 'UNKNOWN', null] },
          { kind: null, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'UNKNOWN', null] },
        ]);
      }
    });
  });

  describe('retention', () => {
    let clock = Date.UTC(2026, 0, 1);
    let timed: Store;
    let p: Project;
    beforeAll(async () => {
      timed = await openStore({ now: () => new Date(clock) });
      p = await timed.projects.create('events-retention');
    });
    const move = async (to: 'COMMITTED' | 'EXECUTING' | 'SUCCEEDED', intentId: string) =>
      timed.intents.updateStatus({ intentId, to });

    it('deletes the events older than the cutoff, oldest first; numbering goes on; a reader sees the gap', async () => {
      const old = await timed.intents.insert(newIntent(p.id));
      for (const to of ['COMMITTED', 'EXECUTING', 'SUCCEEDED'] as const) await move(to, old.intentId);
      clock += 60_000;
      const cutoff = new Date(clock);
      const fresh = await timed.intents.insert(newIntent(p.id));
      await move('COMMITTED', fresh.intentId);

      expect(await timed.eventLog.deleteOlderThan({ before: cutoff, limit: 2 })).toBe(2);
      expect(await timed.eventLog.deleteOlderThan({ before: cutoff, limit: 100 })).toBe(1);
      expect(await timed.eventLog.deleteOlderThan({ before: cutoff, limit: 100 })).toBe(0);
      const kept = await all(p.id);
      expect(kept.map((e) => [e.seq, e.intentId])).toEqual([[4, fresh.intentId]]);
      await move('EXECUTING', fresh.intentId);
      expect((await all(p.id, 4)).map((e) => e.seq)).toEqual([5]);
    });

    it('positionAt: where a replay from a time starts, and whether older events were already deleted', async () => {
      const start = clock;
      const intent = await timed.intents.insert(newIntent(p.id));
      clock += 1_000;
      await move('COMMITTED', intent.intentId); // 6
      clock += 1_000;
      await move('EXECUTING', intent.intentId); // 7
      expect(await timed.eventLog.positionAt({ projectId: p.id, since: new Date(clock) })).toEqual({
        after: 6,
        truncated: false,
      });
      expect(await timed.eventLog.positionAt({ projectId: p.id, since: new Date(clock + 1) })).toEqual({
        after: 7,
        truncated: false,
      });
      // Events 1–3 were deleted: a replay from before them says so, and starts at the oldest kept.
      expect(await timed.eventLog.positionAt({ projectId: p.id, since: new Date(start - 120_000) })).toEqual({
        after: 3,
        truncated: true,
      });
    });
  });
});

function shape(e: IntentEventRecord) {
  const { deposit, origin, destination, refund } = e.receiptStates;
  return { kind: e.transactionKind, status: e.status, states: [deposit, origin, destination, refund] };
}

/** What an event changed, as bench/e2e.ts --stages names it: `intent <status>` or `<row> <its status>`. */
function changed(e: IntentEventRecord) {
  const kind = e.transactionKind;
  return kind ? `${kind} ${e.receiptStates[kind]}` : `intent ${e.status}`;
}
