/**
 * Delivers each project's events to its webhook endpoints: at least once, in event order per endpoint.
 * Every worker process runs one. It leases due endpoints (store.webhooks.leaseDue: one holder each, SKIP
 * LOCKED on Postgres), then walks each leased endpoint's events after its cursor one by one: a 2xx answer
 * moves the cursor past the event (with the delivery's record, in one transaction, only while the lease is
 * still held); anything else is recorded and retried later with backoff (retry-delay.ts), the events behind
 * it waiting, until the retry window runs out and the endpoint is marked failing.
 *
 * A process killed between a delivery and its record sends that event again after the lease expires (the
 * receiver dedupes by `id`); one killed before the delivery sends it then. Nothing is lost: the events are
 * in the log, written with the change.
 *
 * It wakes on every intent change (store.events.subscribeAll) while endpoints exist, and every
 * DISPATCH_POLL_MS for retries, expired leases and endpoints added by the CLI.
 */
import { crashPoint } from '../chains/debug-crash-point.ts';
import { eventTypeOf, matchesEventTypes } from '../events/event-types.ts';
import { FeedEvent } from '../events/feed-event.ts';
import type { EventsObserver } from '../events/observer.ts';
import type { Logger } from '../internal/logger.ts';
import { newWorkerId } from '../internal/worker-id.ts';
import { WebhookSecretUnreadableError } from '../store/errors.ts';
import type { Store, WebhookDeliveryInput, WebhookEndpoint } from '../store/index.ts';
import { createPostAgents, type PostOutcome } from './post-webhook.ts';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, type RetryPolicy } from './retry-delay.ts';
import { isSuccess, sendDelivery } from './send-delivery.ts';

/** Between looks for due endpoints when no change woke the dispatcher (ms): a retry is at most this late. */
export const DISPATCH_POLL_MS = 1_000;
/**
 * The shortest time between two looks (ms): under load changes come hundreds of times a second, and one
 * lease statement per 50 ms is enough to start an endpoint's delivery soon after its event.
 */
const MIN_LOOK_INTERVAL_MS = 50;
/**
 * How long an endpoint stays leased without a word from its holder (ms). Longer than a delivery's deadline
 * (post-webhook.ts, 10 s) so a slow receiver never lets a second process deliver the same event; a killed
 * holder's endpoints are taken over after this.
 */
export const WEBHOOK_LEASE_MS = 15_000;
/** Endpoints delivered to at once by one process; each endpoint's own events go one at a time. */
const MAX_CONCURRENT_ENDPOINTS = 16;
/** Events read from the log per step of an endpoint's walk. */
const EVENT_PAGE = 100;

export interface WebhookDispatcherOptions {
  pollMs?: number | undefined;
  leaseMs?: number | undefined;
  retry?: RetryPolicy | undefined;
  /** A delivery's deadline (ms). */
  timeoutMs?: number | undefined;
  /** Jitter's source, [0, 1). */
  random?: (() => number) | undefined;
  now?: (() => Date) | undefined;
}

export interface WebhookDispatcherDeps {
  store: Pick<Store, 'webhooks' | 'eventLog' | 'events'>;
  log: Logger;
  /** Loopback and private-range targets (the devnet); refused otherwise. */
  allowPrivateTargets: boolean;
  observer?: EventsObserver | undefined;
  options?: WebhookDispatcherOptions | undefined;
}

export interface WebhookDispatcher {
  start(): void;
  /** Stops looking, lets deliveries in flight finish (at most one delivery's deadline) and releases leases. */
  stop(): Promise<void>;
}

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const { store, log, observer } = deps;
  const options = deps.options ?? {};
  const leaseMs = options.leaseMs ?? WEBHOOK_LEASE_MS;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  // A worker id: a worker on this machine ends this dispatcher's leases once its process is gone.
  const owner = newWorkerId();
  const agents = createPostAgents();
  const delivering = new Map<number, Promise<void>>();
  let stopped = true;
  let looking = false;
  let lookAgain = false;
  let lastLook = 0;
  let endpointsExist = false;
  let poll: NodeJS.Timeout | undefined;
  let delayed: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const send = async (endpoint: WebhookEndpoint, event: FeedEvent): Promise<PostOutcome> => {
    let secret: string;
    try {
      secret = endpoint.readSecret();
    } catch (error) {
      if (!(error instanceof WebhookSecretUnreadableError)) throw error;
      // A process without the deployment's key: a failed attempt like a refused connection (recorded,
      // retried with backoff), so the event waits in the log until the operator sets the key.
      log.warn(error.message, { endpointId: endpoint.id, problem: error.problem });
      return { status: null, error: error.message, latencyMs: 0 };
    }
    return sendDelivery(
      { url: endpoint.url, secret },
      { id: event.seq, type: eventTypeOf(event.record), body: event.json },
      { allowPrivateTargets: deps.allowPrivateTargets, agents, timeoutMs: options.timeoutMs, now },
    );
  };

  const report = (endpoint: WebhookEndpoint, delivery: WebhookDeliveryInput, outcome: PostOutcome) =>
    observer?.webhookAttempt?.({
      endpointId: endpoint.id,
      eventId: delivery.eventSeq,
      type: delivery.eventType,
      attempt: delivery.attempt,
      ok: isSuccess(outcome),
      status: outcome.status,
      latencyMs: outcome.latencyMs,
    });

  /** Walks the endpoint's events after its cursor until none is left, one fails, or the lease is lost. */
  const walk = async (endpoint: WebhookEndpoint): Promise<void> => {
    let handled = endpoint.handledSeq;
    let attempts = endpoint.attempts;
    let failingSince = endpoint.failingSince;
    const moveTo = async (seq: number, delivery?: WebhookDeliveryInput) => {
      const held = await store.webhooks.advance({
        id: endpoint.id,
        owner,
        handledSeq: seq,
        leaseMs,
        delivery,
      });
      handled = seq;
      return held;
    };
    for (;;) {
      const page = await store.eventLog.listAfter({
        projectId: endpoint.projectId,
        after: handled,
        limit: EVENT_PAGE,
      });
      let skipped = handled;
      for (const record of page) {
        if (stopped) {
          // Shutting down: the next process takes the endpoint up from its cursor at once.
          await store.webhooks.release({ id: endpoint.id, owner });
          return;
        }
        const event = new FeedEvent(record);
        const type = eventTypeOf(record);
        if (!matchesEventTypes(endpoint.eventTypes, type)) {
          skipped = record.seq;
          continue;
        }
        // The events it does not subscribe to, before this one: past them first, so a failure below
        // leaves the cursor right before the event that failed.
        if (skipped > handled && !(await moveTo(skipped))) return;
        crashPoint('webhook:before-post');
        const outcome = await send(endpoint, event);
        const delivery: WebhookDeliveryInput = {
          eventSeq: record.seq,
          eventType: type,
          attempt: attempts + 1,
          statusCode: outcome.status,
          error: outcome.error,
          latencyMs: outcome.latencyMs,
        };
        report(endpoint, delivery, outcome);
        if (isSuccess(outcome)) {
          crashPoint('webhook:delivered');
          if (!(await moveTo(record.seq, delivery))) return;
          attempts = 0;
          failingSince = null;
          skipped = record.seq;
          continue;
        }
        const at = now();
        const since = failingSince ?? at;
        const retryAt = nextAttemptAt(retry, attempts + 1, since, at, random());
        await store.webhooks.recordFailure({
          id: endpoint.id,
          owner,
          delivery,
          failingSince: since,
          retryAt,
        });
        if (retryAt === null) {
          log.warn('webhook endpoint marked failing: its retries ran out', {
            endpointId: endpoint.id,
            url: endpoint.url,
            eventId: record.seq,
            attempts: attempts + 1,
          });
          observer?.endpointFailing?.(endpoint.id);
        }
        return;
      }
      if (skipped > handled && !(await moveTo(skipped))) return;
      if (page.length < EVENT_PAGE) {
        await store.webhooks.release({ id: endpoint.id, owner });
        return;
      }
    }
  };

  const deliver = (endpoint: WebhookEndpoint) => {
    const run = walk(endpoint)
      .catch(async (error: unknown) => {
        // The database is away (or a bug): the lease expires and the walk is taken up again from the cursor.
        log.warn('webhook delivery stopped by an error; it resumes from the endpoint’s cursor', {
          endpointId: endpoint.id,
          error,
        });
      })
      .finally(() => {
        // Released and leased again meanwhile: that walk's entry stays.
        if (delivering.get(endpoint.id) === run) delivering.delete(endpoint.id);
        // A slot is free, and more may be due.
        if (!stopped) wake();
      });
    delivering.set(endpoint.id, run);
  };

  const look = async () => {
    looking = true;
    lastLook = Date.now();
    try {
      do {
        lookAgain = false;
        const free = MAX_CONCURRENT_ENDPOINTS - delivering.size;
        if (free <= 0 || stopped) return;
        const leased = await store.webhooks.leaseDue({ owner, leaseMs, limit: free, now: now() });
        if (leased.length > 0) endpointsExist = true;
        for (const endpoint of leased) deliver(endpoint);
      } while (lookAgain && !stopped);
    } catch (error) {
      log.warn('looking for due webhook endpoints failed; retrying at the next poll', { error });
    } finally {
      looking = false;
    }
  };

  /** A change: look now, or once the minimum interval has passed. */
  const wake = () => {
    if (stopped || !endpointsExist) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    const wait = lastLook + MIN_LOOK_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      void look();
    } else if (!delayed) {
      delayed = setTimeout(() => {
        delayed = undefined;
        if (!looking && !stopped) void look();
      }, wait);
      delayed.unref();
    }
  };

  const tick = async () => {
    try {
      // Whether changes should wake the dispatcher at all: a project with no endpoints costs nothing more.
      endpointsExist = await store.webhooks.anyActive();
    } catch (error) {
      log.warn('reading webhook endpoints failed; retrying at the next poll', { error });
    }
    if (endpointsExist && !looking) await look();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe = store.events.subscribeAll(wake);
      poll = setInterval(() => void tick(), options.pollMs ?? DISPATCH_POLL_MS);
      poll.unref();
      void tick();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      clearTimeout(delayed);
      unsubscribe?.();
      await Promise.allSettled([...delivering.values()]);
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
