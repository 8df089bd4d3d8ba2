import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, rawQuery } from '../../test/harness/database.ts';
import { newIntent, randomHash } from './testing.ts';
import type { Project, Store } from './types.ts';

/** Resolves with the first notification for `intentId`. */
function nextChange(store: Store, intentId: string): Promise<string> {
  return new Promise((resolve) => {
    const off = store.events.subscribe(intentId, (id) => {
      off();
      resolve(id);
    });
  });
}

describeEachDialect('intent change notifications', ({ openStore, database }) => {
  let writer: Store;
  let waiter: Store;
  let project: Project;
  beforeAll(async () => {
    writer = await openStore();
    // Postgres: the waiter is another store (its own pool and listening connection), standing in
    // for another API process. SQLite notifications are in-process, so the waiter is the writer.
    waiter = writer.capabilities.supportsListenNotify ? await openStore() : writer;
    project = await writer.projects.create('events');
  });

  it('wakes a subscriber when another store publishes', async () => {
    const intentId = randomHash();
    const woken = nextChange(waiter, intentId);
    await writer.events.publish(intentId);
    expect(await woken).toBe(intentId);
  });

  it('publishes on every status change and transaction update', async () => {
    const { intentId } = await writer.intents.insert(newIntent(project.id));
    const onStatus = nextChange(waiter, intentId);
    await writer.intents.updateStatus({ intentId, to: 'COMMITTED' });
    expect(await onStatus).toBe(intentId);
    const onTransaction = nextChange(waiter, intentId);
    await writer.transactions.upsert({ intentId, kind: 'deposit', chainId: 1, status: 'PENDING' });
    expect(await onTransaction).toBe(intentId);
  });

  it('delivers only to the intent’s subscribers, and not after unsubscribing', async () => {
    const [a, b] = [randomHash(), randomHash()];
    const heardOnA: string[] = [];
    const off = waiter.events.subscribe(a, (id) => heardOnA.push(id));
    const firstOnA = nextChange(waiter, a);
    await writer.events.publish(a);
    await firstOnA;
    off();
    await writer.events.publish(a);
    // Notifications arrive in order: once b's arrives, a's second one has been delivered too.
    const onB = nextChange(waiter, b);
    await writer.events.publish(b);
    await onB;
    expect(heardOnA).toEqual([a]);
  });

  it('serves many waiters on one intent with one listening connection', async () => {
    const intentId = randomHash();
    const waiters = Array.from({ length: 500 }, () => nextChange(waiter, intentId));
    await writer.events.publish(intentId);
    expect(new Set(await Promise.all(waiters))).toEqual(new Set([intentId]));
    if (writer.capabilities.supportsListenNotify) {
      const listening = await rawQuery<{ n: string }>(
        database(),
        "select count(*) as n from pg_stat_activity where datname = current_database() and query like 'LISTEN %'",
      );
      // One per store (writer and waiter), however many waiters there are.
      expect(Number(listening[0]!.n)).toBe(2);
    }
  });
});
