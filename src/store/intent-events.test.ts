import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, rawQuery } from '../../test/harness/database.ts';
import { newIntent, randomHash } from './testing.ts';
import type { IntentInserted, Project, Store } from './types.ts';

/** Resolves with the first notification for `intentId`. */
function nextChange(store: Store, intentId: string): Promise<string> {
  return new Promise((resolve) => {
    const off = store.events.subscribe(intentId, (id) => {
      off();
      resolve(id);
    });
  });
}

/** Resolves with the first insert notification `store` hears for `projectId` (and owner, when given). */
function nextInsert(store: Store, projectId: number, ownerAddress?: string): Promise<IntentInserted> {
  return new Promise((resolve) => {
    const off = store.events.subscribeInserts((insert) => {
      if (insert.projectId !== projectId) return;
      if (ownerAddress !== undefined && insert.ownerAddress !== ownerAddress) return;
      off();
      resolve(insert);
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

  it('wakes the writing process’s own subscribers once per change: its NOTIFY’s echo is not delivered again', async () => {
    const intentId = (await writer.intents.insert(newIntent(project.id))).intentId;
    const heard: string[] = [];
    const off = writer.events.subscribe(intentId, (id) => heard.push(id));
    await writer.intents.updateStatus({ intentId, to: 'COMMITTED' });
    await writer.transactions.upsert({ intentId, kind: 'deposit', chainId: 1, status: 'PENDING' });
    await writer.events.publish(intentId);
    // A fence: the writer's listening connection hears notifications in commit order, so once it has
    // heard the waiter's (another process on Postgres), the echoes of the three writes above are in.
    const fence = randomHash();
    const fenced = nextChange(writer, fence);
    await waiter.events.publish(fence);
    await fenced;
    off();
    expect(heard).toEqual([intentId, intentId, intentId]);
  });

  it('publishes every insert with its project and lower-case owner, to this process and the others', async () => {
    const other = await writer.projects.create('events-other');
    const ownerAddress = '0xAbCdEf0000000000000000000000000000000001';
    const lower = ownerAddress.toLowerCase();
    const inWriter = nextInsert(writer, project.id, lower);
    const inWaiter = nextInsert(waiter, project.id, lower);
    const inOther = nextInsert(waiter, other.id);
    await writer.intents.insert(newIntent(project.id, { ownerAddress }));
    const expected = { projectId: project.id, ownerAddress: lower };
    expect(await inWriter).toEqual(expected);
    expect(await inWaiter).toEqual(expected);
    await writer.intents.insert(newIntent(other.id, { ownerAddress }));
    expect(await inOther).toEqual({ projectId: other.id, ownerAddress: lower });
  });

  it('tells the writing process of its insert before insert returns', async () => {
    const heard: IntentInserted[] = [];
    const off = writer.events.subscribeInserts((insert) => heard.push(insert));
    const { ownerAddress } = await writer.intents.insert(newIntent(project.id));
    off();
    expect(heard).toContainEqual({ projectId: project.id, ownerAddress });
  });

  it('stops delivering inserts after unsubscribing', async () => {
    // One owner for this test: earlier tests' notifications may still be arriving (Postgres).
    const ownerAddress = randomHash().slice(0, 42);
    const heard: IntentInserted[] = [];
    const off = waiter.events.subscribeInserts((insert) => {
      if (insert.ownerAddress === ownerAddress) heard.push(insert);
    });
    const first = nextInsert(waiter, project.id, ownerAddress);
    await writer.intents.insert(newIntent(project.id, { ownerAddress }));
    await first;
    off();
    // Notifications arrive in order: once the third insert is heard, the second was delivered too.
    await writer.intents.insert(newIntent(project.id, { ownerAddress }));
    const third = nextInsert(waiter, project.id, ownerAddress);
    await writer.intents.insert(newIntent(project.id, { ownerAddress }));
    await third;
    expect(heard).toHaveLength(1);
  });

  it('says notifications may have been missed when the listening connection drops, and again once back (Postgres)', async () => {
    if (!waiter.capabilities.supportsListenNotify) return;
    let calls = 0;
    const back = new Promise<void>((resolve) => {
      const off = waiter.events.subscribeMissed(() => {
        calls++;
        if (calls < 2) return;
        off();
        resolve();
      });
    });
    await rawQuery(
      database(),
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'",
    );
    await back;
    expect(calls).toBe(2);
    // Listening again: notifications arrive as before.
    const intentId = randomHash();
    const woken = nextChange(waiter, intentId);
    await writer.events.publish(intentId);
    expect(await woken).toBe(intentId);
  });
});
