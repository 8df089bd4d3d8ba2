/**
 * GetIntentHistory: a project's intents with their receipts, filtered, in keyset pages.
 *
 * A cursor is the `id` of an intent and names the place right after it in the page's order: `after`
 * reads the rows past that place, `before` the rows up to it (the cursor's intent included), nearest
 * first, turned back into page order. Ordered by `id` the cursor is compared directly; ordered by
 * `createdAt` the page continues from that intent's (created_at, id) pair, so equal timestamps are
 * neither skipped nor repeated. Pages are index range scans (see the intents indexes), never OFFSET.
 *
 * Filtered by participants (an intent's owner or recipient, `participantAddresses`), a page is the union of
 * one such scan per address and column, each at most a page long, cut to the page: at most
 * 2 × addresses × (pageSize + 1) rows read, however many intents the addresses have.
 */
import { sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { type ResolvedPage, resolvePage } from './resolve-page.ts';
import { byKind, intentFromRow, lower, transactionFromRow } from './rows.ts';
import type { IntentRow } from './schema.ts';
import { selectTransactionsOf } from './transactions.ts';
import type {
  IntentHistoryFilter,
  IntentHistoryIndex,
  IntentHistoryPage,
  IntentReceiptRecord,
  IntentStatus,
  IntentTransactionRecord,
  NextPage,
} from './types.ts';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './resolve-page.ts';

const MS_PER_SECOND = 1_000;

/**
 * A caller's number compared with an integer column: as a bigint, so a value past the column's range
 * (Postgres `integer` holds up to 2^31 − 1) matches nothing instead of failing the query.
 */
const asBigint = (value: number) => sql<number>`cast(${value} as bigint)`;

/** The columns an address is a participant by. */
const PARTICIPANT_COLUMNS = ['owner_address', 'recipient_address'] as const;
type Participation = { column: (typeof PARTICIPANT_COLUMNS)[number]; address: string };

/** Reading order: going back reads the page's order reversed, from the cursor's intent (included) outwards. */
function readingOrder(page: ResolvedPage) {
  const ascending = (page.order === 'ASC') !== page.backward;
  const op: '>=' | '<=' | '>' | '<' = page.backward ? (ascending ? '>=' : '<=') : ascending ? '>' : '<';
  return { dir: ascending ? ('asc' as const) : ('desc' as const), op };
}

/** The filter's participants, lower case and once each; undefined when it names none. */
function participantsOf(filter: IntentHistoryFilter): string[] | undefined {
  if (!filter.participantAddresses?.length) return undefined;
  return [...new Set(filter.participantAddresses.map((a) => lower(a)))];
}

/**
 * The filtered page query in reading order (nearest the cursor first), with one extra row that says
 * whether another page exists without a COUNT; no columns yet. `as` narrows it to the intents where an
 * address takes part by one column (one member of a participants page).
 */
function pageQuery(ctx: StoreContext, filter: IntentHistoryFilter, page: ResolvedPage, as?: Participation) {
  const { dir, op } = readingOrder(page);
  let query = ctx.db.selectFrom('intents').where('project_id', '=', filter.projectId);
  if (as) query = query.where(as.column, '=', as.address);
  if (filter.ownerAddress) query = query.where('owner_address', '=', lower(filter.ownerAddress));
  const statuses = filter.statuses?.length ? filter.statuses : filter.status ? [filter.status] : undefined;
  if (statuses) query = query.where('status', 'in', statuses);
  if (filter.originChainId !== undefined)
    query = query.where('origin_chain_id', '=', asBigint(filter.originChainId));
  if (filter.destinationChainId !== undefined)
    query = query.where('destination_chain_id', '=', asBigint(filter.destinationChainId));
  if (filter.originTokenAddress)
    query = query.where('origin_token_address', '=', lower(filter.originTokenAddress));
  if (filter.destinationTokenAddress)
    query = query.where('destination_token_address', '=', lower(filter.destinationTokenAddress));
  if (filter.fromTime !== undefined) query = query.where('created_at', '>=', filter.fromTime * MS_PER_SECOND);
  // toTime is a whole second: everything created during that second is included.
  if (filter.toTime !== undefined)
    query = query.where('created_at', '<', (filter.toTime + 1) * MS_PER_SECOND);

  const cursor = page.cursor;
  if (cursor !== undefined) {
    query =
      page.column === 'id'
        ? query.where('id', op, asBigint(cursor))
        : query.where(
            sql<boolean>`(created_at, id) ${sql.raw(op)} (select c.created_at, c.id from intents c where c.id = ${asBigint(cursor)} and c.project_id = ${filter.projectId})`,
          );
  }
  query =
    page.column === 'id' ? query.orderBy('id', dir) : query.orderBy('created_at', dir).orderBy('id', dir);
  return query.limit(page.pageSize + 1);
}

/**
 * The ids of a participants page in reading order (pageSize + 1 at most, as pageQuery reads): one member per
 * address and column, each an index range scan of at most a page, their union (an intent found by its owner
 * and its recipient once) ordered and cut again.
 */
async function participantPageIds(
  ctx: StoreContext,
  filter: IntentHistoryFilter,
  page: ResolvedPage,
  addresses: readonly string[],
): Promise<number[]> {
  const { dir } = readingOrder(page);
  const members = addresses.flatMap((address) =>
    PARTICIPANT_COLUMNS.map((column) =>
      ctx.db
        .selectFrom(pageQuery(ctx, filter, page, { column, address }).select(['id', 'created_at']).as('m'))
        .select(['m.id', 'm.created_at']),
    ),
  );
  const union = members.slice(1).reduce((all, member) => all.union(member), members[0]!);
  const ordered =
    page.column === 'id' ? union.orderBy('id', dir) : union.orderBy('created_at', dir).orderBy('id', dir);
  const rows = await ordered.limit(page.pageSize + 1).execute();
  return rows.map((r) => Number(r.id));
}

/** Rows read by id, back in the order of `ids`. */
function inOrder<T extends { id: number }>(ids: readonly number[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The page's rows in page order, and the cursor onward: past the last row going forward; going back,
 * the extra row (the one just before the page), whose place is where the previous page ends.
 */
function splitPage<T extends { id: number }>(
  page: ResolvedPage,
  rows: T[],
): { rows: T[]; nextPage?: NextPage } {
  const shown = rows.slice(0, page.pageSize);
  if (page.backward) shown.reverse();
  if (rows.length <= page.pageSize) return { rows: shown };
  const cursor = page.backward ? { before: rows[page.pageSize]!.id } : { after: shown.at(-1)!.id };
  return {
    rows: shown,
    nextPage: {
      column: page.column,
      ...cursor,
      sort: [{ column: page.column, order: page.order }],
      pageSize: page.pageSize,
      more: true,
    },
  };
}

/** Joins intent rows with their transactions, in the rows' order. */
async function withTransactions(ctx: StoreContext, rows: IntentRow[]): Promise<IntentReceiptRecord[]> {
  const transactions = await selectTransactionsOf(
    ctx.db,
    rows.map((r) => r.intent_id),
  );
  const grouped = new Map<string, IntentTransactionRecord[]>();
  for (const t of transactions) {
    const record = transactionFromRow(t);
    const list = grouped.get(record.intentId);
    if (list) list.push(record);
    else grouped.set(record.intentId, [record]);
  }
  return rows.map((row) => ({
    intent: intentFromRow(row),
    transactions: byKind(grouped.get(row.intent_id) ?? []),
  }));
}

/**
 * The receipts of these intents of a project, in the order asked; unknown intents and other
 * projects' intents are left out.
 */
export async function receiptsOf(
  ctx: StoreContext,
  projectId: number,
  intentIds: string[],
): Promise<IntentReceiptRecord[]> {
  if (intentIds.length === 0) return [];
  const ids = intentIds.map((id) => lower(id));
  // By intent_id alone, the unique index: with project_id in the WHERE clause SQLite (no ANALYZE
  // statistics) walks a project index instead, ~60 ms for 20 ids at 10,000 intents.
  const rows = await ctx.db.selectFrom('intents').selectAll().where('intent_id', 'in', ids).execute();
  const byId = new Map(rows.filter((row) => row.project_id === projectId).map((row) => [row.intent_id, row]));
  return withTransactions(
    ctx,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

export async function intentHistory(
  ctx: StoreContext,
  filter: IntentHistoryFilter,
): Promise<IntentHistoryPage> {
  const page = resolvePage(filter.page);
  const participants = participantsOf(filter);
  let read: IntentRow[];
  if (participants) {
    const ids = await participantPageIds(ctx, filter, page, participants);
    const rows = ids.length
      ? await ctx.db.selectFrom('intents').selectAll().where('id', 'in', ids).execute()
      : [];
    read = inOrder(ids, rows);
  } else {
    read = await pageQuery(ctx, filter, page).selectAll().execute();
  }
  const { rows, nextPage } = splitPage(page, read);
  const intents = await withTransactions(ctx, rows);
  return nextPage ? { intents, nextPage } : { intents };
}

/**
 * GetIntentHistory's page without the receipts: what a cache of receipts needs to check its entries.
 * Only columns stored before `intent_json`: SQLite reads a later column by walking the ~3 KB JSON's
 * overflow pages (0.07 → 0.5 ms a page at 10,000 intents).
 */
export async function intentHistoryIndex(
  ctx: StoreContext,
  filter: IntentHistoryFilter,
): Promise<IntentHistoryIndex> {
  const page = resolvePage(filter.page);
  const participants = participantsOf(filter);
  const columns = ['id', 'intent_id', 'status'] as const;
  let read: { id: number; intent_id: string; status: string }[];
  if (participants) {
    const ids = await participantPageIds(ctx, filter, page, participants);
    const rows = ids.length
      ? await ctx.db.selectFrom('intents').select(columns).where('id', 'in', ids).execute()
      : [];
    read = inOrder(ids, rows);
  } else {
    read = await pageQuery(ctx, filter, page).select(columns).execute();
  }
  const { rows, nextPage } = splitPage(page, read);
  const intents = rows.map((r) => ({ id: r.id, intentId: r.intent_id, status: r.status as IntentStatus }));
  return nextPage ? { intents, nextPage } : { intents };
}
