/** In-process intent change notifications (SQLite: one process owns the database file). */
import { EventEmitter } from 'node:events';
import type { IntentEvents, IntentListener } from './types.ts';

export interface LocalIntentEvents extends IntentEvents {
  /** Delivers to this process's subscribers only (used by the Postgres listener). */
  deliver(intentId: string): void;
}

export function createLocalIntentEvents(): LocalIntentEvents {
  const emitter = new EventEmitter();
  // One event name per intent; thousands of concurrent waiters are expected, not a leak.
  emitter.setMaxListeners(0);
  const deliver = (intentId: string) => {
    emitter.emit(intentId, intentId);
  };
  return {
    subscribe(intentId: string, listener: IntentListener) {
      emitter.on(intentId, listener);
      return () => {
        emitter.off(intentId, listener);
      };
    },
    async publish(intentId: string) {
      deliver(intentId);
    },
    deliver,
    async close() {
      emitter.removeAllListeners();
    },
  };
}
