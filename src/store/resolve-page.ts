/**
 * A history page request checked and resolved: its column, order, size and cursor. Every member a
 * caller can get wrong is refused with an InvalidPageError naming it, before any SQL runs.
 */
import { InvalidPageError } from './errors.ts';
import type { Page, PageColumn, SortOrder } from './types.ts';

/** The spec's default page size. */
export const DEFAULT_PAGE_SIZE = 20;
/** Each entry carries a full receipt; larger pages are cut to this many. */
export const MAX_PAGE_SIZE = 100;

/** The columns pages are ordered by, as the wire spells them (any case; `created_at` too). */
export const PAGE_COLUMNS: readonly PageColumn[] = ['id', 'createdAt'];
const COLUMN_NAMES: Record<string, PageColumn> = {
  id: 'id',
  createdat: 'createdAt',
  created_at: 'createdAt',
};
const ORDERS: readonly SortOrder[] = ['ASC', 'DESC'];

export interface ResolvedPage {
  column: PageColumn;
  order: SortOrder;
  pageSize: number;
  /** The intent whose place the page starts from; absent for the first page. */
  cursor: number | undefined;
  /** True for `before`: the page ends at the cursor's intent (included) instead of following it. */
  backward: boolean;
}

export function resolvePage(page: Page | undefined): ResolvedPage {
  const sort = page?.sort ?? [];
  // Ties are broken by id in the same order; a second sort entry would promise an order never applied.
  if (sort.length > 1)
    throw new InvalidPageError('sort', `takes one entry (ties are broken by id), got ${sort.length}`);
  const sortColumn = sort[0] && columnOf(sort[0].column, 'sort[0].column');
  const pageColumn = page?.column ? columnOf(page.column, 'column') : undefined;
  if (pageColumn && sortColumn && pageColumn !== sortColumn)
    throw new InvalidPageError(
      'sort[0].column',
      `must be page.column ('${pageColumn}'), got '${sortColumn}'`,
    );
  const rawOrder = sort[0]?.order ?? 'DESC';
  const order = typeof rawOrder === 'string' ? (rawOrder.toUpperCase() as SortOrder) : rawOrder;
  if (!ORDERS.includes(order))
    throw new InvalidPageError('sort[0].order', `must be ASC or DESC, got ${JSON.stringify(rawOrder)}`);
  const size = page?.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1)
    throw new InvalidPageError('pageSize', `must be a positive integer, got ${JSON.stringify(size)}`);
  const after = cursorOf(page?.after, 'after');
  const before = cursorOf(page?.before, 'before');
  if (after !== undefined && before !== undefined)
    throw new InvalidPageError(
      'before',
      'give page.after (the next page) or page.before (the previous one), not both',
    );
  return {
    column: pageColumn ?? sortColumn ?? 'id',
    order,
    pageSize: Math.min(size, MAX_PAGE_SIZE),
    cursor: after ?? before,
    backward: before !== undefined,
  };
}

function columnOf(raw: unknown, field: string): PageColumn {
  const column = typeof raw === 'string' ? COLUMN_NAMES[raw.toLowerCase()] : undefined;
  if (!column)
    throw new InvalidPageError(
      field,
      `must be one of the columns ${PAGE_COLUMNS.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  return column;
}

function cursorOf(raw: number | null | undefined, field: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Number.isSafeInteger(raw) || raw < 0)
    throw new InvalidPageError(
      field,
      `must be a cursor from a previous nextPage (a non-negative integer), got ${JSON.stringify(raw)}`,
    );
  return raw;
}
