/**
 * GetIntentHistory's `participantAddresses` in the store, on SQLite and Postgres: an address takes part in an
 * intent as its owner or as its recipient (the quote's destinationToAddress); pages walk the union in both
 * orders and columns, each intent once; the filter ANDs with the others; and migration 0014 fills in the
 * recipient of intents stored before it.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, rawExecute, rawQuery } from '../../test/harness/database.ts';
import { newIntent, randomAddress } from './testing.ts';
import type { IntentHistoryFilter, IntentRecord, Page, Project, Store } from './types.ts';

const BASE_MS = Date.UTC(2031, 0, 1);
/** Intents in the paging walk: more than two pages of the size below, on both columns. */
const WALKED = 23;
const PAGE_SIZE = 7;

const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

describeEachDialect('intent history by participant', ({ openStore, database }) => {
  let store: Store;
  let project: Project;
  const [p, q, r, s] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
  let stored: IntentRecord[] = [];
  let n = 0;

  /** An intent owned by `owner` paying `to` (undefined: no destinationToAddress, the owner is paid). */
  async function add(owner: string, to: string | undefined, projectId = project.id) {
    n++;
    const intentId = `0x${n.toString(16).padStart(64, '0')}`;
    const record = await store.intents.insert(
      newIntent(projectId, {
        intentId,
        ownerAddress: owner,
        // createdAt runs against insertion order in threes: createdAt pages differ from id pages and tie.
        createdAt: new Date(BASE_MS - Math.floor(n / 3) * 1_000),
        intent: { intentId, quoteRequest: { ownerAddress: owner, ...(to && { destinationToAddress: to }) } },
      }),
    );
    if (projectId === project.id) stored.push(record);
    return record;
  }

  const history = (filter: Omit<IntentHistoryFilter, 'projectId'>) =>
    store.intents.history({ projectId: project.id, ...filter });
  const all = async (filter: Omit<IntentHistoryFilter, 'projectId'>) =>
    (await history({ ...filter, page: { pageSize: 100 } })).intents.map((e) => e.intent.intentId);
  const newestFirst = (pred: (i: IntentRecord) => boolean) =>
    stored
      .filter(pred)
      .sort((a, b) => b.id - a.id)
      .map((i) => i.intentId);
  const recipients = new Map<string, string | undefined>();
  const takesPart = (address: string) => (i: IntentRecord) =>
    i.ownerAddress === address || recipients.get(i.intentId) === address;

  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('participants');
    const other = await store.projects.create('participants-other');
    stored = [];
    const cases: [string, string | undefined][] = [
      [p, undefined],
      [q, p],
      [p, p],
      [r, q],
      [p, q],
      [s, upper(r)],
      [s, undefined],
    ];
    for (let i = 0; i < WALKED; i++) cases.push(i % 2 === 0 ? [p, r] : [r, p]);
    for (const [owner, to] of cases) {
      const record = await add(owner, to);
      recipients.set(record.intentId, to?.toLowerCase());
    }
    // Another project's intents of the same addresses never show.
    await add(p, q, other.id);
    await add(q, p, other.id);
  });

  it('finds an address as owner or as recipient, any case, each intent once', async () => {
    expect(await all({ participantAddresses: [upper(p)] })).toEqual(newestFirst(takesPart(p)));
    expect(await all({ participantAddresses: [q] })).toEqual(newestFirst(takesPart(q)));
    expect(await all({ participantAddresses: [r] })).toEqual(newestFirst(takesPart(r)));
    // p owns the intent paying q, and q is asked for too: it is listed once.
    expect(await all({ participantAddresses: [p, q, p] })).toEqual(
      newestFirst((i) => takesPart(p)(i) || takesPart(q)(i)),
    );
    expect(await all({ participantAddresses: [randomAddress()] })).toEqual([]);
    // An empty list filters nothing.
    expect(await all({ participantAddresses: [] })).toEqual(newestFirst(() => true));
  });

  it('ANDs with the owner, status and time filters', async () => {
    expect(await all({ participantAddresses: [p], ownerAddress: q })).toEqual(
      newestFirst((i) => i.ownerAddress === q && takesPart(p)(i)),
    );
    const committed = stored.filter(takesPart(r)).filter((_, i) => i % 3 === 0);
    for (const i of committed) await store.intents.updateStatus({ intentId: i.intentId, to: 'COMMITTED' });
    const ids = new Set(committed.map((i) => i.intentId));
    expect(await all({ participantAddresses: [r], status: 'COMMITTED' })).toEqual(
      newestFirst((i) => ids.has(i.intentId)),
    );
    const from = BASE_MS / 1000 - 5;
    expect(await all({ participantAddresses: [r], fromTime: from })).toEqual(
      newestFirst((i) => takesPart(r)(i) && i.createdAt.getTime() >= from * 1000),
    );
  });

  for (const column of ['id', 'createdAt'] as const) {
    for (const order of ['ASC', 'DESC'] as const) {
      it(`walks p's and r's intents by ${column} ${order} with nextPage, and back with before`, async () => {
        const filter = { participantAddresses: [p, r] };
        const expected = stored
          .filter((i) => takesPart(p)(i) || takesPart(r)(i))
          .sort((a, b) =>
            column === 'id' ? a.id - b.id : a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id,
          )
          .map((i) => i.intentId);
        if (order === 'DESC') expected.reverse();
        const pages: string[][] = [];
        let page: Page | undefined = { column, sort: [{ column, order }], pageSize: PAGE_SIZE };
        const nexts: Page[] = [];
        while (page) {
          if (pages.length > expected.length) throw new Error('paging did not end');
          const result = await history({ ...filter, page });
          const index = await store.intents.historyIndex({ projectId: project.id, ...filter, page });
          pages.push(result.intents.map((e) => e.intent.intentId));
          expect(index.intents.map((i) => i.intentId)).toEqual(pages.at(-1));
          expect(index.nextPage).toEqual(result.nextPage);
          page = result.nextPage && (JSON.parse(JSON.stringify(result.nextPage)) as Page);
          if (page) nexts.push(page);
        }
        expect(pages.flat()).toEqual(expected);
        expect(pages.map((x) => x.length)).toEqual(
          Array.from({ length: Math.ceil(expected.length / PAGE_SIZE) }, (_, i) =>
            Math.min(PAGE_SIZE, expected.length - i * PAGE_SIZE),
          ),
        );
        // The second page's cursor, sent as `before`, answers the second page again.
        const { after, ...rest } = nexts[1]!;
        const back = await history({ ...filter, page: { ...rest, before: after! } });
        expect(back.intents.map((e) => e.intent.intentId)).toEqual(pages[1]);
      });
    }
  }

  it('fills in the recipient of intents stored before migration 0014', async () => {
    // As a database migrated before 0014 has it: no column, no indexes, 0014 not recorded (nor those after it;
    // 0016 only sets a Postgres column option, which running it again sets as it was).
    for (const statement of [
      `delete from kysely_migration where name = '0016_lz4_large_columns'`,
      'drop index intents_open_fills',
      'drop index signed_transactions_intent_purpose',
      'create index signed_transactions_intent on signed_transactions (intent_id)',
      `delete from kysely_migration where name = '0015_open_fill_indexes'`,
      'drop index intents_project_recipient',
      'drop index intents_project_recipient_created',
      'alter table intents drop column recipient_address',
      `delete from kysely_migration where name = '0014_intents_recipient'`,
    ]) {
      await rawExecute(database(), statement);
    }
    store = await openStore();
    expect(await all({ participantAddresses: [q] })).toEqual(newestFirst(takesPart(q)));
    const rows = await rawQuery<{ id: number; recipient_address: string | null }>(
      database(),
      'select id, recipient_address from intents',
    );
    const byId = new Map(stored.map((i) => [i.id, i]));
    for (const row of rows) {
      const intent = byId.get(Number(row.id));
      if (!intent) continue;
      const to = recipients.get(intent.intentId);
      expect(row.recipient_address, intent.intentId).toBe(to && to !== intent.ownerAddress ? to : null);
    }
  });
});
