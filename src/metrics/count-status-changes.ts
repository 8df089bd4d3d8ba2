/**
 * The store as the rest of the process sees it when metrics are on: the same store, with every stored
 * status move counted (`switchyard_intent_status_changes_total{status}`). New quotes count as QUOTED; a
 * move the store refuses (backwards, or to the same status) is not counted. Every status write goes
 * through `intents.insert`, `intents.updateStatus` or a step's completion with the intent's end
 * (`steps.complete({ end })`), so nothing is missed.
 */
import type { Store } from '../store/index.ts';
import type { Metrics } from './metrics.ts';

export function countStatusChanges(store: Store, metrics: Metrics): Store {
  const { intents, steps } = store;
  return {
    ...store,
    steps: {
      ...steps,
      async complete(input) {
        const result = await steps.complete(input);
        if (input.end && result.ended) metrics.intentStatusChanged(input.end.to);
        return result;
      },
    },
    intents: {
      ...intents,
      async insert(input) {
        const record = await intents.insert(input);
        metrics.intentStatusChanged('QUOTED');
        return record;
      },
      async updateStatus(update) {
        const result = await intents.updateStatus(update);
        if (result.updated) metrics.intentStatusChanged(update.to);
        return result;
      },
    },
  };
}
