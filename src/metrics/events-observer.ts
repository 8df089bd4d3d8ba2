/**
 * The event stream's and the webhook dispatcher's hooks (src/events/observer.ts) counted as metrics: open
 * streams, and every delivery attempt with its latency.
 */
import type { EventsObserver } from '../events/observer.ts';
import type { Metrics } from './metrics.ts';

const MS_PER_SECOND = 1_000;

export function eventsObserverFor(metrics: Metrics): EventsObserver {
  // The stream reports its count after each change; the metrics count opens and closes.
  let open = 0;
  return {
    streamsChanged(now) {
      for (; open < now; open++) metrics.eventStreamOpened();
      for (; open > now; open--) metrics.eventStreamClosed();
    },
    webhookAttempt(outcome) {
      metrics.webhookDelivery(outcome.ok ? 'delivered' : 'failed', outcome.latencyMs / MS_PER_SECOND);
    },
  };
}
