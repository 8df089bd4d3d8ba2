/**
 * The history page cache on its own: what it stores, what drops a page, and the reads it refuses to
 * store (an insert into the project while the read ran, an entry that was not current). The API
 * level (bytes, both databases, other processes) is in reads-cache.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createHistoryPageCache } from '../../src/api/methods/reads/history-page-cache.ts';
import type { ReceiptCache } from '../../src/api/methods/reads/receipt-cache.ts';
import { createLocalIntentEvents } from '../../src/store/intent-events-local.ts';

const OWNER = '0x00000000000000000000000000000000000000aa';
const OTHER_OWNER = '0x00000000000000000000000000000000000000bb';

function setup(maxBytes?: number) {
  const events = createLocalIntentEvents();
  const dropListeners: ((intentId: string) => void)[] = [];
  // Only onDrop is used by the page cache; the rest is never called here.
  const receipts = {
    onDrop(listener: (intentId: string) => void) {
      dropListeners.push(listener);
      return () => {};
    },
  } as unknown as ReceiptCache;
  const cache = createHistoryPageCache({ events, receipts, maxBytes });
  const dropIntent = (intentId: string) => {
    for (const listener of dropListeners) listener(intentId);
  };
  const store = (projectId: number, ownerAddress: string | undefined, intentIds: string[], bytes: Buffer) => {
    const filter = { projectId, ...(ownerAddress && { ownerAddress }) };
    const key = cache.keyOf(filter, 'Trails')!;
    cache.begin(key, filter).fill({ intentIds, bytes, current: true });
    return key;
  };
  return { events, cache, dropIntent, store };
}

describe('history page cache', () => {
  it('keeps a page for its project only', () => {
    const { cache, store } = setup();
    const key = store(1, OWNER, ['0x01'], Buffer.from('page'));
    expect(cache.get(key, 1)?.toString()).toBe('page');
    expect(cache.get(key, 2)).toBeUndefined();
  });

  it('does not cache pages filtered by status, nor anything when off', () => {
    const { cache } = setup();
    expect(cache.keyOf({ projectId: 1, status: 'SUCCEEDED' }, 'Trails')).toBeUndefined();
    expect(cache.keyOf({ projectId: 1, statuses: ['FAILED'] }, 'Trails')).toBeUndefined();
    expect(cache.keyOf({ projectId: 1, statuses: [] }, 'Trails')).toBeDefined();
    expect(setup(0).cache.keyOf({ projectId: 1 }, 'Trails')).toBeUndefined();
  });

  it('keys pages by dialect and by the whole filter', () => {
    const { cache } = setup();
    const keys = new Set([
      cache.keyOf({ projectId: 1 }, 'Trails'),
      cache.keyOf({ projectId: 1 }, 'Service'),
      cache.keyOf({ projectId: 2 }, 'Trails'),
      cache.keyOf({ projectId: 1, ownerAddress: OWNER }, 'Trails'),
      cache.keyOf({ projectId: 1, page: { after: 5 } }, 'Trails'),
      cache.keyOf({ projectId: 1, originChainId: 5 }, 'Trails'),
    ]);
    expect(keys.size).toBe(6);
  });

  it("drops the owner's and the project-wide pages on an insert, not other owners' or projects'", async () => {
    const { cache, store, events } = setup();
    const mine = store(1, OWNER, ['0x01'], Buffer.from('a'));
    const all = store(1, undefined, ['0x01', '0x02'], Buffer.from('b'));
    const theirs = store(1, OTHER_OWNER, ['0x02'], Buffer.from('c'));
    const elsewhere = store(2, OWNER, ['0x03'], Buffer.from('d'));
    await events.publishInsert({ projectId: 1, ownerAddress: OWNER });
    expect(cache.get(mine, 1)).toBeUndefined();
    expect(cache.get(all, 1)).toBeUndefined();
    expect(cache.get(theirs, 1)?.toString()).toBe('c');
    expect(cache.get(elsewhere, 2)?.toString()).toBe('d');
  });

  it('drops every page showing an intent that leaves the receipt cache', () => {
    const { cache, store, dropIntent } = setup();
    const mine = store(1, OWNER, ['0x01', '0x02'], Buffer.from('a'));
    const all = store(1, undefined, ['0x02', '0x03'], Buffer.from('b'));
    const theirs = store(1, OTHER_OWNER, ['0x03'], Buffer.from('c'));
    dropIntent('0x02');
    expect(cache.get(mine, 1)).toBeUndefined();
    expect(cache.get(all, 1)).toBeUndefined();
    expect(cache.get(theirs, 1)?.toString()).toBe('c');
    expect(cache.size).toBe(1);
  });

  it('does not store a page read while an insert into its project arrived, nor a page not current', async () => {
    const { cache, events } = setup();
    const filter = { projectId: 1, ownerAddress: OWNER };
    const key = cache.keyOf(filter, 'Trails')!;
    const read = cache.begin(key, filter);
    // Another owner of the same project: the read may still have missed it (counted per project).
    await events.publishInsert({ projectId: 1, ownerAddress: OTHER_OWNER });
    read.fill({ intentIds: ['0x01'], bytes: Buffer.from('a'), current: true });
    expect(cache.get(key, 1)).toBeUndefined();

    const unrelated = cache.begin(key, filter);
    await events.publishInsert({ projectId: 2, ownerAddress: OWNER });
    unrelated.fill({ intentIds: ['0x01'], bytes: Buffer.from('a'), current: false });
    expect(cache.get(key, 1)).toBeUndefined();
    cache.begin(key, filter).fill({ intentIds: ['0x01'], bytes: Buffer.from('a'), current: true });
    expect(cache.get(key, 1)?.toString()).toBe('a');
  });

  it('stays within its bytes, dropping the least recently read pages first', () => {
    const { cache, store } = setup(10);
    const first = store(1, OWNER, ['0x01'], Buffer.alloc(4));
    const second = store(1, OTHER_OWNER, ['0x02'], Buffer.alloc(4));
    expect(cache.get(first, 1)).toBeDefined();
    const third = store(1, undefined, ['0x03'], Buffer.alloc(4));
    expect(cache.bytes).toBe(8);
    expect(cache.get(second, 1)).toBeUndefined();
    expect(cache.get(first, 1)).toBeDefined();
    expect(cache.get(third, 1)).toBeDefined();
    store(1, OWNER, ['0x04'], Buffer.alloc(11));
    expect(cache.bytes).toBeLessThanOrEqual(10);
  });

  it("replaces a filter's page with its next read: the new page answers to its own intents and inserts", async () => {
    const { cache, store, dropIntent, events } = setup(10);
    const key = store(1, OWNER, ['0x01'], Buffer.from('old'));
    store(1, OWNER, ['0x02'], Buffer.from('new'));
    dropIntent('0x01');
    expect(cache.get(key, 1)?.toString()).toBe('new');
    await events.publishInsert({ projectId: 1, ownerAddress: OWNER });
    expect(cache.get(key, 1)).toBeUndefined();
    store(1, OWNER, ['0x02'], Buffer.from('again'));
    dropIntent('0x02');
    expect([cache.get(key, 1), cache.size, cache.bytes]).toEqual([undefined, 0, 0]);
  });

  it('does not store a page larger than the whole cache, and the older page of its filter is gone', () => {
    const { cache, store } = setup(10);
    const key = store(1, OWNER, ['0x01'], Buffer.alloc(4));
    store(1, OWNER, ['0x02'], Buffer.alloc(11));
    expect([cache.get(key, 1), cache.size, cache.bytes]).toEqual([undefined, 0, 0]);
  });

  it('drops every page when notifications may have been missed, and stores nothing read before', () => {
    const { cache, store, events } = setup();
    const key = store(1, OWNER, ['0x01'], Buffer.from('a'));
    store(2, undefined, ['0x02'], Buffer.from('b'));
    const filter = { projectId: 1, ownerAddress: OWNER };
    const read = cache.begin(key, filter);
    events.deliverMissed();
    expect(cache.size).toBe(0);
    read.fill({ intentIds: ['0x01'], bytes: Buffer.from('a'), current: true });
    expect(cache.get(key, 1)).toBeUndefined();
  });
});
