import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent } from './testing.ts';
import type { IntentInserted, NewIntent, Project, Store } from './types.ts';

/** The quote's insert: on Postgres one statement with its notifications, on SQLite a transaction. */
describeEachDialect('quote insert (intent, receipt rows, notifications)', ({ openStore, dialect }) => {
  let writer: Store;
  let listener: Store;
  let project: Project;
  beforeAll(async () => {
    writer = await openStore();
    // Postgres: another store stands in for another process (its own pool and listening connection).
    listener = writer.capabilities.supportsListenNotify ? await openStore() : writer;
    project = await writer.projects.create('insert-quote');
  });

  const deposit = { kind: 'deposit', chainId: 1, status: 'UNKNOWN' } as const;
  const origin = { kind: 'origin', chainId: 1, status: 'UNKNOWN' } as const;

  it('refuses a duplicate intent id with the intents key, as the separate inserts did, and keeps nothing of it', async () => {
    const input = newIntent(project.id);
    await writer.intents.insert({ ...input, transactions: [deposit] });
    // The second one's deposit row collides too: the intent's key must still be the one reported.
    const again = writer.intents.insert({ ...input, transactions: [deposit, origin] });
    if (dialect === 'postgres') {
      // postgres.js names the violated key `constraint_name` (pg called it `constraint`).
      await expect(again).rejects.toMatchObject({ code: '23505', constraint_name: 'intents_intent_id_key' });
    } else {
      await expect(again).rejects.toThrow(/UNIQUE constraint failed: intents\.intent_id/);
    }
    const rows = await writer.transactions.list(input.intentId);
    expect(rows.map((row) => row.kind)).toEqual(['deposit']);
  });

  it('announces a stored quote to every process, and a refused one to none', async () => {
    // Two owners, so each insert notification says which quote it is for.
    const refused: NewIntent = { ...newIntent(project.id), transactions: [deposit, deposit] };
    const stored: NewIntent = { ...newIntent(project.id), transactions: [deposit, origin] };
    const owners = new Set([refused.ownerAddress, stored.ownerAddress]);
    const heard = {
      writer: [] as IntentInserted[],
      listener: [] as IntentInserted[],
      changes: [] as string[],
    };
    const offs = [
      writer.events.subscribeInserts((insert) => {
        if (owners.has(insert.ownerAddress)) heard.writer.push(insert);
      }),
      listener.events.subscribeInserts((insert) => {
        if (owners.has(insert.ownerAddress)) heard.listener.push(insert);
      }),
      listener.events.subscribe(refused.intentId, (id) => heard.changes.push(id)),
    ];
    const storedChange = new Promise<void>((resolve) => {
      const off = listener.events.subscribe(stored.intentId, () => {
        off();
        resolve();
      });
    });

    await expect(writer.intents.insert(refused)).rejects.toThrow();
    await writer.intents.insert(stored);
    const insert = { projectId: project.id, ownerAddress: stored.ownerAddress };
    // The writing process hears before insert returns (its NOTIFY may follow: Postgres).
    expect(heard.writer[0]).toEqual(insert);
    // Notifications arrive in order, the insert's before the change's: once the stored quote's change
    // is heard, its insert and anything a refused quote had sent have been delivered too.
    await storedChange;
    for (const off of offs) off();
    expect(heard.listener).toEqual([insert]);
    expect(heard.writer.every((one) => one.ownerAddress === stored.ownerAddress)).toBe(true);
    expect(heard.changes).toEqual([]);
    expect(await writer.intents.get({ projectId: project.id, intentId: refused.intentId })).toBeUndefined();
    expect(await writer.transactions.list(refused.intentId)).toEqual([]);
  });
});
