/**
 * The receipt cache on its own: its bound, which intent leaves first, and that whatever leaves stops
 * listening and tells the page cache. The API level (bytes, both databases, other processes) is in
 * reads-cache.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createReceiptCache } from '../../src/api/methods/reads/receipt-cache.ts';
import type { IntentEvents, IntentReceiptRecord } from '../../src/store/index.ts';
import { createLocalIntentEvents } from '../../src/store/intent-events-local.ts';

const NAME = 'Trails:receipt';
const PROJECT = { projectId: 1 };

/** A finished intent with no transactions: cacheable, and all the cache reads of it. */
function finished(intentId: string): IntentReceiptRecord {
  return {
    intent: { intentId, projectId: 1, status: 'SUCCEEDED', updatedAt: new Date(1_000) },
    transactions: {},
  } as unknown as IntentReceiptRecord;
}

function setup(maxIntents: number) {
  const events = createLocalIntentEvents();
  // Live subscriptions per intent: an intent that left the cache must not be listened for any more.
  const listening = new Map<string, number>();
  const counted: IntentEvents = {
    ...events,
    subscribe(intentId, listener) {
      listening.set(intentId, (listening.get(intentId) ?? 0) + 1);
      const stop = events.subscribe(intentId, listener);
      return () => {
        listening.set(intentId, (listening.get(intentId) ?? 0) - 1);
        stop();
      };
    },
  };
  const cache = createReceiptCache({ events: counted, maxIntents });
  const dropped: string[] = [];
  cache.onDrop((intentId) => dropped.push(intentId));
  const fill = (intentId: string) => {
    const read = cache.begin([intentId]);
    read.fill(finished(intentId), NAME, Buffer.from(intentId));
    read.end();
  };
  const cached = (...intentIds: string[]) =>
    intentIds.filter((id) => cache.text(id, NAME, PROJECT) !== undefined);
  return { cache, events, listening, dropped, fill, cached };
}

describe('receipt cache', () => {
  it('keeps at most its bound of intents, dropping the least recently read first', () => {
    const { cache, listening, dropped, fill, cached } = setup(2);
    fill('0x0a');
    fill('0x0b');
    expect(cached('0x0a')).toEqual(['0x0a']);
    fill('0x0c');
    expect(dropped).toEqual(['0x0b']);
    expect(cache.size).toBe(2);
    expect(cached('0x0a', '0x0b', '0x0c')).toEqual(['0x0a', '0x0c']);
    expect(Object.fromEntries(listening)).toEqual({ '0x0a': 1, '0x0b': 0, '0x0c': 1 });
  });

  it('counts only a hit as a use', () => {
    const { cache, dropped, fill } = setup(2);
    fill('0x0a');
    fill('0x0b');
    expect(cache.text('0x0a', 'Service:entry', PROJECT)).toBeUndefined();
    expect(cache.text('0x0a', NAME, { projectId: 2 })).toBeUndefined();
    fill('0x0c');
    expect(dropped).toEqual(['0x0a']);
  });

  it('drops an intent on its first event, and everything when notifications may have been missed', async () => {
    const { cache, events, listening, dropped, fill, cached } = setup(10);
    for (const id of ['0x0a', '0x0b', '0x0c']) fill(id);
    await events.publish('0x0b');
    expect(dropped).toEqual(['0x0b']);
    expect(cached('0x0a', '0x0b', '0x0c')).toEqual(['0x0a', '0x0c']);
    events.deliverMissed();
    expect(dropped.toSorted()).toEqual(['0x0a', '0x0b', '0x0c']);
    expect(cache.size).toBe(0);
    expect([...listening.values()]).toEqual([0, 0, 0]);
  });

  it('stores nothing with a bound of 0', () => {
    const { cache, fill, cached } = setup(0);
    fill('0x0a');
    expect([cache.size, cached('0x0a')]).toEqual([0, []]);
  });
});
