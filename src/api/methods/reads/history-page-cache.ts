/**
 * A bounded cache of whole GetIntentHistory answers (the response bytes of one filter's page), so a
 * wallet reading its history again costs neither the page's index query nor composing ~85 KB.
 *
 * A page is cached only when every one of its entries is a cached finished intent (receipt-cache.ts)
 * at the moment it is stored, and it stays only while that holds and nothing can have joined it:
 *
 * - an entry's intent leaving the receipt cache (any status change or transaction upsert, here or,
 *   on Postgres, in another process; or evicted) drops every page that shows it, synchronously;
 * - a new intent of the project (`store.events` inserts) drops the project's pages of its owner and
 *   the project's pages not filtered by owner: it may be on any of them, or move their `nextPage`;
 * - pages filtered by status are never cached: an intent of the project changing status can join
 *   or leave them, and status events name the intent, not its project or owner. Every other filter
 *   (owner, participants, chains, tokens, creation time, page cursor) is on columns that never change after
 *   insert; a page filtered by participants is grouped with the pages not filtered by owner.
 *
 * A read notes the project's insert count before its query; a page read while an insert arrived
 * is not stored. When notifications may have been missed (the Postgres listening connection
 * dropped), every page goes, and reads begun before store nothing. Pages are keyed by the caller's project (checked again on every hit) and dialect.
 */
import { LRUCache } from 'lru-cache';
import type { IntentEvents, IntentHistoryFilter } from '../../../store/index.ts';
import type { Dialect } from '../../dialect.ts';
import type { ReceiptCache } from './receipt-cache.ts';

/**
 * Bytes of cached pages. A bench page of 20 entries is ~85 KB, so ~390 pages: the first pages of a
 * few hundred active wallets, on top of the receipt cache's ≤ ~40 MB (pages copy their entries).
 */
export const HISTORY_PAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** The owner-group of pages not filtered by owner. */
const ANY_OWNER = '*';

interface Page {
  key: string;
  projectId: number;
  group: string;
  intentIds: readonly string[];
  bytes: Buffer;
}

/** A page read in progress. */
export interface PageRead {
  /**
   * Stores the page's bytes unless an insert into the project arrived since the read began, or
   * `current` is false (some entry was not a cached text when the page was composed).
   */
  fill(input: { intentIds: readonly string[]; bytes: Buffer; current: boolean }): void;
}

export interface HistoryPageCache {
  /** The cache key of a filter's page in a dialect, or undefined when such pages are not cached. */
  keyOf(filter: IntentHistoryFilter, dialect: Dialect): string | undefined;
  get(key: string, projectId: number): Buffer | undefined;
  /** Call before the page's index is read. */
  begin(key: string, filter: IntentHistoryFilter): PageRead;
  readonly size: number;
  readonly bytes: number;
}

function groupOf(projectId: number, ownerAddress: string | undefined): string {
  return `${projectId}:${ownerAddress === undefined ? ANY_OWNER : ownerAddress.toLowerCase()}`;
}

export function createHistoryPageCache(deps: {
  events: IntentEvents;
  receipts: ReceiptCache;
  maxBytes?: number | undefined;
}): HistoryPageCache {
  const maxBytes = deps.maxBytes ?? HISTORY_PAGE_CACHE_MAX_BYTES;
  const byIntent = new Map<string, Set<string>>();
  const byGroup = new Map<string, Set<string>>();
  // Inserts heard per project since start: a read that saw the count move may have missed an intent.
  const inserts = new Map<number, number>();
  // Times notifications may have been missed: a read begun before stores nothing.
  let missed = 0;

  const unlink = (index: Map<string, Set<string>>, name: string, key: string) => {
    const keys = index.get(name);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) index.delete(name);
  };
  const link = (index: Map<string, Set<string>>, name: string, key: string) => {
    const keys = index.get(name);
    if (keys) keys.add(key);
    else index.set(name, new Set([key]));
  };
  // Bounded by the pages' bytes; a page leaving (dropped, replaced or evicted) leaves the indexes with it,
  // once it is gone. lru-cache needs sizes and a bound of 1 or more; with 0, keyOf caches nothing.
  const pages = new LRUCache<string, Page>({
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (page) => Math.max(1, page.bytes.length),
    disposeAfter(page, key) {
      unlink(byGroup, page.group, key);
      for (const id of page.intentIds) unlink(byIntent, id, key);
    },
  });
  const dropAll = (keys: Set<string> | undefined) => {
    if (keys) for (const key of [...keys]) pages.delete(key);
  };

  if (maxBytes > 0) {
    deps.receipts.onDrop((intentId) => dropAll(byIntent.get(intentId)));
    deps.events.subscribeInserts(({ projectId, ownerAddress }) => {
      inserts.set(projectId, (inserts.get(projectId) ?? 0) + 1);
      dropAll(byGroup.get(groupOf(projectId, ownerAddress)));
      dropAll(byGroup.get(groupOf(projectId, undefined)));
    });
    deps.events.subscribeMissed(() => {
      missed++;
      pages.clear();
    });
  }

  return {
    keyOf(filter, dialect) {
      if (maxBytes <= 0) return undefined;
      if (filter.status !== undefined || (filter.statuses?.length ?? 0) > 0) return undefined;
      return JSON.stringify([dialect, filter]);
    },
    get(key, projectId) {
      const page = pages.peek(key);
      if (!page || page.projectId !== projectId) return undefined;
      pages.get(key);
      return page.bytes;
    },
    begin(key, filter) {
      const { projectId } = filter;
      const seen = inserts.get(projectId) ?? 0;
      const missedAtBegin = missed;
      return {
        fill({ intentIds, bytes: pageBytes, current }) {
          if (!current || (inserts.get(projectId) ?? 0) !== seen || missed !== missedAtBegin) return;
          const page: Page = {
            key,
            projectId,
            group: groupOf(projectId, filter.ownerAddress),
            intentIds: [...intentIds],
            bytes: pageBytes,
          };
          // The key's old page goes first; a page larger than the whole cache is not stored.
          if (pages.set(key, page).peek(key) !== page) return;
          link(byGroup, page.group, key);
          for (const id of intentIds) link(byIntent, id, key);
        },
      };
    },
    get size() {
      return pages.size;
    },
    get bytes() {
      return pages.calculatedSize;
    },
  };
}
