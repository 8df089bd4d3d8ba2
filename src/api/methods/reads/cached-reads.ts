/**
 * GetIntentReceipt and GetIntentHistory (without balances) answered as JSON text: cached bytes for
 * finished intents (see receipt-cache.ts) and for whole pages of them (history-page-cache.ts), the
 * store and the route's serialiser for the rest.
 */
import type { IntentHistoryFilter, IntentHistoryIndex, Store } from '../../../store/index.ts';
import type { ApiDeps } from '../../context.ts';
import type { Dialect } from '../../dialect.ts';
import type { HistoryPageCache } from './history-page-cache.ts';
import { preSerialised, type Serialize } from './pre-serialised.ts';
import type { ReceiptCache } from './receipt-cache.ts';
import { historyEntryToWire, receiptToWire } from './to-wire.ts';

/** GetIntentHistory's response starts with its entries (the schema's first member). */
const HISTORY_OPEN = '{"intents":[';
const HISTORY_OPEN_BYTES = Buffer.from(HISTORY_OPEN);
const COMMA = Buffer.from(',');

export class HistoryLayoutError extends Error {}

export interface CachedReads {
  /** The GetIntentReceipt answer, or undefined when the project has no such intent. */
  receipt<T>(input: { projectId: number; intentId: string; dialect: Dialect }): Promise<T | undefined>;
  history<T>(input: { filter: IntentHistoryFilter; dialect: Dialect }): Promise<T>;
}

export function createCachedReads(
  deps: Pick<ApiDeps, 'chainById'>,
  store: Store,
  cache: ReceiptCache,
  pages: HistoryPageCache,
): CachedReads {
  return {
    async receipt({ projectId, intentId, dialect }) {
      const name = `${dialect}:receipt`;
      const hit = cache.text(intentId, name, { projectId });
      if (hit !== undefined) return preSerialised(() => hit);
      const read = cache.begin([intentId]);
      try {
        const record = await store.intents.getReceipt({ projectId, intentId });
        if (!record) {
          read.end();
          return undefined;
        }
        return preSerialised((serialize) => {
          try {
            const bytes = Buffer.from(serialize({ intentReceipt: receiptToWire(deps, record, dialect) }));
            read.fill(record, name, bytes);
            return bytes;
          } finally {
            read.end();
          }
        });
      } catch (error) {
        read.end();
        throw error;
      }
    },

    async history({ filter, dialect }) {
      const name = `${dialect}:entry`;
      const key = pages.keyOf(filter, dialect);
      const hit = key === undefined ? undefined : pages.get(key, filter.projectId);
      if (hit !== undefined) return preSerialised(() => hit);
      const pageRead = key === undefined ? undefined : pages.begin(key, filter);
      const index = await store.intents.historyIndex(filter);
      const texts = index.intents.map((i) =>
        cache.text(i.intentId, name, { projectId: filter.projectId, status: i.status }),
      );
      const missing = index.intents.filter((_, n) => texts[n] === undefined).map((i) => i.intentId);
      const read = cache.begin(missing);
      try {
        const records = await store.intents.getReceipts({ projectId: filter.projectId, intentIds: missing });
        return preSerialised((serialize) => {
          try {
            const layout = historyLayout(serialize, index.nextPage);
            const fresh = new Map(
              records.map((record) => {
                const bytes = layout.entry(historyEntryToWire(deps, record, dialect));
                read.fill(record, name, bytes);
                return [record.intent.intentId, bytes] as const;
              }),
            );
            const parts: Buffer[] = [HISTORY_OPEN_BYTES];
            // Whether every entry is, right now, the receipt cache's text for its intent: then the
            // page is current, and stays so until one of them leaves that cache (see the page cache).
            let current = true;
            for (const [n, i] of index.intents.entries()) {
              const entry = texts[n] ?? fresh.get(i.intentId);
              if (!entry) {
                current = false;
                continue;
              }
              current &&= cache.holds(i.intentId, name, entry);
              if (parts.length > 1) parts.push(COMMA);
              parts.push(entry);
            }
            parts.push(layout.tail);
            const bytes = Buffer.concat(parts);
            pageRead?.fill({ intentIds: index.intents.map((i) => i.intentId), bytes, current });
            return bytes;
          } finally {
            read.end();
          }
        });
      } catch (error) {
        read.end();
        throw error;
      }
    },
  };
}

/**
 * Where the entries sit in the serialised page: the route's serialiser writes an empty page as
 * `{"intents":[` + `],"nextPage":…}` (`]}` on the last page, which has no nextPage), and a one-entry
 * page with the entry's text between the two.
 */
function historyLayout(serialize: Serialize, nextPage: IntentHistoryIndex['nextPage']) {
  const empty = serialize(nextPage ? { intents: [], nextPage } : { intents: [] });
  if (!empty.startsWith(`${HISTORY_OPEN}]`))
    throw new HistoryLayoutError(
      `GetIntentHistory serialises as ${empty.slice(0, 40)}…, not ${HISTORY_OPEN}…`,
    );
  const tail = empty.slice(HISTORY_OPEN.length);
  return {
    tail: Buffer.from(tail),
    entry(value: unknown): Buffer {
      const one = serialize(nextPage ? { intents: [value], nextPage } : { intents: [value] });
      if (!one.startsWith(HISTORY_OPEN) || !one.endsWith(tail))
        throw new HistoryLayoutError('a one-entry GetIntentHistory page does not wrap its entry as expected');
      return Buffer.from(one.slice(HISTORY_OPEN.length, one.length - tail.length));
    },
  };
}
