/**
 * Quotes nobody committed are deleted a retention after they expired, with their receipt rows, and the store
 * goes back to its size; committed intents and quotes anything happened to are kept; several processes
 * deleting at once delete each quote once.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, rawQuery } from '../../test/harness/database.ts';
import { createQuoteRetention, QUOTE_PURGE_BATCH, QUOTE_RETENTION_MS } from '../app/quote-retention.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { newIntent, randomAddress, randomHash } from './testing.ts';
import type { NewIntent, Project, Store } from './types.ts';

/** When the test's quotes expire. */
const EXPIRY = new Date('2026-01-01T00:00:00Z');
/** Quotes per round of the size test: more than one batch. */
const QUOTES_PER_ROUND = QUOTE_PURGE_BATCH + 100;
/** What a real quote stores: the wire intent (destination calls and all) and the plan, ~20 KB together. */
const CALLDATA = `0x${'ab'.repeat(7_000)}`;
const PLAN_JSON = JSON.stringify({ steps: 'x'.repeat(5_000) });
/**
 * Pages (4 KiB) the pages in use, and the file from one round to the next, may differ by: index pages split
 * by the inserts and not merged back (measured: 0 in use, 2 in the file, against ~1,600 pages per round).
 */
const PAGE_SLACK = 8;

const after = (ms: number) => new Date(EXPIRY.getTime() + ms);

function quote(projectId: number, overrides: Partial<NewIntent> = {}): NewIntent {
  const intent = newIntent(projectId, { quoteExpiresAt: EXPIRY, planJson: PLAN_JSON, ...overrides });
  return {
    ...intent,
    intent: { intentId: intent.intentId, destinationCalls: [{ data: CALLDATA }] },
    transactions: (['deposit', 'origin', 'destination'] as const).map((kind) => ({
      kind,
      chainId: 31_337,
      status: 'UNKNOWN' as const,
      fromAddress: randomAddress(),
      toAddress: randomAddress(),
      tokenAmount: 1_000_000n,
    })),
  };
}

describeEachDialect('deleting expired quotes', ({ openStore, database, dialect }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('retention');
  });

  /** A run of the background task with its clock at `at`. */
  const runAt = (at: Date, target: Store = store) =>
    createQuoteRetention({ store: target, log: createSilentLogger(), options: { now: () => at } }).runOnce();

  const count = async (table: 'intents' | 'intent_transactions') => {
    const [row] = await rawQuery<{ n: number | string }>(database(), `SELECT count(*) AS n FROM ${table}`);
    return Number(row!.n);
  };
  const sizes = async () => ({
    intents: await count('intents'),
    receipts: await count('intent_transactions'),
  });
  /** SQLite: pages in the file, and those in use (not on the free list, which later writes reuse). */
  const pages = async () => {
    const [{ page_count }] = (await rawQuery<{ page_count: number }>(database(), 'PRAGMA page_count')) as [
      { page_count: number },
    ];
    const [{ freelist_count }] = (await rawQuery<{ freelist_count: number }>(
      database(),
      'PRAGMA freelist_count',
    )) as [{ freelist_count: number }];
    return { total: page_count, used: page_count - freelist_count };
  };

  it('deletes a never-committed quote a retention after its expiry, and keeps what anything happened to', async () => {
    const lapsed = await store.intents.insert(quote(project.id));
    const later = await store.intents.insert(quote(project.id, { quoteExpiresAt: after(60 * 60 * 1000) }));
    const committed = await store.intents.insert(quote(project.id));
    await store.intents.updateStatus({ intentId: committed.intentId, to: 'COMMITTED', committedAt: EXPIRY });
    const stepped = await store.intents.insert(quote(project.id));
    await store.steps.enqueue({ intentId: stepped.intentId, step: 'deposit' });
    const signed = await store.intents.insert(quote(project.id));
    await store.signedTransactions.allocateAndRecord({
      chainId: 31_337,
      fromAddress: randomAddress(),
      purpose: 'refund',
      intentId: signed.intentId,
      sign: async () => ({ raw: '0x01', hash: randomHash() }),
    });
    const deposited = await store.intents.insert(quote(project.id));
    await store.transactions.upsert({
      intentId: deposited.intentId,
      kind: 'deposit',
      chainId: 31_337,
      status: 'SUCCEEDED',
      txnHash: randomHash(),
    });

    // Not yet: the retention is measured from the quote's expiry, exclusive.
    expect(await runAt(after(QUOTE_RETENTION_MS))).toBe(0);
    expect(await store.intents.getForEngine(lapsed.intentId)).toBeDefined();

    expect(await runAt(after(QUOTE_RETENTION_MS + 1))).toBe(1);
    expect(await store.intents.getForEngine(lapsed.intentId)).toBeUndefined();
    expect(await store.transactions.list(lapsed.intentId)).toEqual([]);
    for (const kept of [later, committed, stepped, signed, deposited]) {
      expect(await store.intents.getForEngine(kept.intentId)).toBeDefined();
      expect(await store.transactions.list(kept.intentId)).toHaveLength(3);
    }
    expect((await store.intents.get({ projectId: project.id, intentId: committed.intentId }))?.status).toBe(
      'COMMITTED',
    );
  });

  it('brings the store back to its size after N quotes, round after round', async () => {
    const baseline = await sizes();
    const basePages = dialect === 'sqlite' ? await pages() : undefined;
    let firstRoundTotal = 0;
    for (const round of [1, 2]) {
      for (let i = 0; i < QUOTES_PER_ROUND; i++) await store.intents.insert(quote(project.id));
      expect(await sizes()).toEqual({
        intents: baseline.intents + QUOTES_PER_ROUND,
        receipts: baseline.receipts + 3 * QUOTES_PER_ROUND,
      });
      expect(await runAt(after(QUOTE_RETENTION_MS + 1))).toBe(QUOTES_PER_ROUND);
      expect(await sizes()).toEqual(baseline);
      if (basePages) {
        const now = await pages();
        // The deleted rows' pages are free again: the pages in use are those of before, give or take the
        // few index pages whose entries shifted; the file keeps its size and the next round reuses it.
        expect(Math.abs(now.used - basePages.used)).toBeLessThanOrEqual(PAGE_SLACK);
        if (round === 1) {
          firstRoundTotal = now.total;
          expect(now.total).toBeGreaterThan(basePages.total + QUOTES_PER_ROUND);
        } else {
          expect(now.total).toBeLessThanOrEqual(firstRoundTotal + PAGE_SLACK);
        }
      }
    }
  });

  it('deletes each quote once when several processes delete at the same time', async () => {
    const baseline = await sizes();
    // On Postgres another store stands for another process (its own pool). SQLite serves one process, whose
    // callers share its one connection: two of them at once is the concurrency there is.
    const other = dialect === 'postgres' ? await openStore() : store;
    const quotes = 120;
    for (let i = 0; i < quotes; i++) await store.intents.insert(quote(project.id));
    // The cutoff itself: what a run at EXPIRY + QUOTE_RETENTION_MS + 1 ms deletes.
    const expiredBefore = after(1);
    const drain = async (target: Store) => {
      let total = 0;
      for (;;) {
        const deleted = await target.expiredQuotes.deleteExpired({ expiredBefore, limit: 10 });
        if (deleted === 0) return total;
        total += deleted;
      }
    };
    const [mine, theirs] = await Promise.all([drain(store), drain(other)]);
    expect(mine + theirs).toBe(quotes);
    expect(await sizes()).toEqual(baseline);
  });
});
