/**
 * A bounded cache of the serialised receipts (and history entries) of finished intents, so repeated
 * reads of the same intents cost neither a query nor a serialisation.
 *
 * Only intents in a terminal status whose transactions are all final (SUCCEEDED or FAILED) are
 * cached: their bytes normally never change again. They still can (a refund recorded after the
 * failure), so every entry listens to `store.events` for its intent (published on each status
 * change and transaction upsert; across processes through LISTEN/NOTIFY on Postgres) and is dropped
 * on the first event. A read subscribes before it queries: an event that arrives while it is
 * reading means the bytes it built may already be stale, and they are not cached. When notifications
 * may have been missed (the Postgres listening connection dropped), everything is dropped.
 */
import { LRUCache } from 'lru-cache';
import type { IntentEvents, IntentReceiptRecord, IntentStatus } from '../../../store/index.ts';
import { isTerminal } from '../../../store/index.ts';

/**
 * Intents kept. A bench intent's receipt answer is ~4 KB and its history entry ~4.2 KB per dialect
 * read, so ≤ ~40 MB when both readers use one dialect; it holds the recently finished intents that
 * wallets and dashboards read again and again.
 */
export const RECEIPT_CACHE_MAX_INTENTS = 5_000;

const FINAL_TRANSACTION_STATUSES = new Set(['SUCCEEDED', 'FAILED']);

/**
 * Checked on every hit: the project always (cached bytes never cross projects), the status when the
 * caller has just read it. A cached intent is terminal, so its status and updatedAt no longer move;
 * its transactions may, and those changes arrive as events.
 */
export interface IntentVersion {
  projectId: number;
  status?: IntentStatus | undefined;
}

interface Entry {
  projectId: number;
  status: IntentStatus;
  updatedAtMs: number;
  /** Serialised forms by name (e.g. `Trails:receipt`, `Service:entry`), UTF-8. */
  texts: Map<string, Buffer>;
  stop: () => void;
}

/** A read in progress: filled texts are kept only for intents that saw no event since it began. */
export interface CacheRead {
  fill(record: IntentReceiptRecord, name: string, text: Buffer): void;
  /** Stops listening; call once the read's texts are filled (or it failed). */
  end(): void;
}

export interface ReceiptCache {
  /** The cached text, when the intent is cached for this project (and in this status, when given). */
  text(
    intentId: string,
    name: string,
    version: Pick<IntentVersion, 'projectId'> & Partial<IntentVersion>,
  ): Buffer | undefined;
  begin(intentIds: readonly string[]): CacheRead;
  /** True when exactly this text is cached for the intent now (no LRU touch). */
  holds(intentId: string, name: string, text: Buffer): boolean;
  /**
   * Called whenever an intent leaves the cache (an event, or evicted): whatever was built from its
   * cached texts (a whole history page) must go too. Synchronous with the drop.
   */
  onDrop(listener: (intentId: string) => void): () => void;
  readonly size: number;
}

export function isCacheable({ intent, transactions }: IntentReceiptRecord): boolean {
  if (!isTerminal(intent.status)) return false;
  return Object.values(transactions).every((t) => t && FINAL_TRANSACTION_STATUSES.has(t.status));
}

export function createReceiptCache(deps: { events: IntentEvents; maxIntents?: number }): ReceiptCache {
  const max = deps.maxIntents ?? RECEIPT_CACHE_MAX_INTENTS;
  const dropListeners = new Set<(intentId: string) => void>();
  // Bounded by count, whatever texts an entry holds (lru-cache needs a bound of 1 or more; with 0 nothing
  // is stored). Every way out (a delete, an eviction, `clear`) runs disposeAfter once the entry is gone.
  const entries = new LRUCache<string, Entry>({
    max: Math.max(1, max),
    disposeAfter(entry, intentId) {
      entry.stop();
      for (const listener of dropListeners) listener(intentId);
    },
  });
  // Times notifications may have been missed (Postgres listener lost): reads begun before refill nothing.
  let missed = 0;

  if (max > 0)
    deps.events.subscribeMissed(() => {
      missed++;
      entries.clear();
    });

  const store = (record: IntentReceiptRecord, name: string, text: Buffer) => {
    const { intent } = record;
    let entry = entries.peek(intent.intentId);
    if (entry && entry.updatedAtMs !== intent.updatedAt.getTime()) {
      entries.delete(intent.intentId);
      entry = undefined;
    }
    if (!entry) {
      entry = {
        projectId: intent.projectId,
        status: intent.status,
        updatedAtMs: intent.updatedAt.getTime(),
        texts: new Map(),
        stop: deps.events.subscribe(intent.intentId, () => entries.delete(intent.intentId)),
      };
      entries.set(intent.intentId, entry);
    }
    entry.texts.set(name, text);
  };

  return {
    text(intentId, name, version) {
      const entry = entries.peek(intentId);
      if (!entry) return undefined;
      if (entry.projectId !== version.projectId) return undefined;
      if (version.status !== undefined && entry.status !== version.status) return undefined;
      const text = entry.texts.get(name);
      // Only a hit counts as a use.
      if (text !== undefined) entries.get(intentId);
      return text;
    },
    begin(intentIds) {
      if (max === 0 || intentIds.length === 0) return { fill() {}, end() {} };
      const changed = new Set<string>();
      const stops = intentIds.map((id) => deps.events.subscribe(id, () => changed.add(id)));
      const missedAtBegin = missed;
      return {
        fill(record, name, text) {
          if (missed !== missedAtBegin) return;
          if (!changed.has(record.intent.intentId) && isCacheable(record)) store(record, name, text);
        },
        end() {
          for (const stop of stops) stop();
        },
      };
    },
    holds(intentId, name, text) {
      return entries.peek(intentId)?.texts.get(name) === text;
    },
    onDrop(listener) {
      const own = (intentId: string) => listener(intentId);
      dropListeners.add(own);
      return () => {
        dropListeners.delete(own);
      };
    },
    get size() {
      return entries.size;
    },
  };
}
