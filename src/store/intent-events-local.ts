/** In-process intent change notifications (SQLite: one process owns the database file). */
import { EventEmitter } from 'node:events';
import type { InsertListener, IntentEvents, IntentInserted, IntentListener } from './types.ts';

export interface LocalIntentEvents extends IntentEvents {
  /** Delivers to this process's subscribers only (used by the Postgres listener). */
  deliver(intentId: string): void;
  /** Delivers an insert to this process's insert subscribers only. */
  deliverInsert(insert: IntentInserted): void;
  /** Tells this process's subscribers that notifications may have been missed. */
  deliverMissed(): void;
}

export function createLocalIntentEvents(): LocalIntentEvents {
  const emitter = new EventEmitter();
  // One event name per intent; thousands of concurrent waiters are expected, not a leak.
  emitter.setMaxListeners(0);
  // Insert subscribers are caches (one per API server), not waiters: a plain set.
  const insertListeners = new Set<InsertListener>();
  const missedListeners = new Set<() => void>();
  const allListeners = new Set<IntentListener>();
  const deliver = (intentId: string) => {
    emitter.emit(intentId, intentId);
    for (const listener of allListeners) listener(intentId);
  };
  const deliverInsert = (insert: IntentInserted) => {
    for (const listener of insertListeners) listener(insert);
  };
  return {
    subscribe(intentId: string, listener: IntentListener) {
      emitter.on(intentId, listener);
      return () => {
        emitter.off(intentId, listener);
      };
    },
    subscribeAll(listener: IntentListener) {
      const own: IntentListener = (intentId) => listener(intentId);
      allListeners.add(own);
      return () => {
        allListeners.delete(own);
      };
    },
    async publish(intentId: string) {
      deliver(intentId);
    },
    subscribeInserts(listener: InsertListener) {
      // A wrapper per subscription, so subscribing one function twice gives two independent subscriptions.
      const own: InsertListener = (insert) => listener(insert);
      insertListeners.add(own);
      return () => {
        insertListeners.delete(own);
      };
    },
    async publishInsert(insert: IntentInserted) {
      deliverInsert(insert);
    },
    subscribeMissed(listener: () => void) {
      const own = () => listener();
      missedListeners.add(own);
      return () => {
        missedListeners.delete(own);
      };
    },
    deliver,
    deliverInsert,
    deliverMissed() {
      for (const listener of missedListeners) listener();
    },
    async close() {
      emitter.removeAllListeners();
      insertListeners.clear();
      missedListeners.clear();
      allListeners.clear();
    },
  };
}
