/**
 * One reader of the event log per process, fanned out to every subscriber of a project (the open event
 * streams): a change wakes one read per followed project, not one per stream. It wakes on every intent
 * change this process hears (`store.events.subscribeAll`: its own writes at once, other processes' through
 * LISTEN/NOTIFY on Postgres), when notifications may have been missed, and every FEED_POLL_MS besides.
 *
 * A project's numbers commit in order (migration 0009), so "after the last number read" never skips an
 * event. Each page goes to every subscriber; a subscriber keeps the part above what it has already sent.
 */
import type { Logger } from '../internal/logger.ts';
import type { Store } from '../store/index.ts';
import { FeedEvent } from './feed-event.ts';

/**
 * A read when no notification came (ms): the log is the truth, a notification only a hint, and a missed one
 * (a dropped listening connection, a writer outside this store's notifications) costs at most this delay.
 */
export const FEED_POLL_MS = 5_000;
/** Events per read: a burst is sent in pages this size, each written to a stream in one socket write. */
const FEED_PAGE = 500;

export interface FeedSubscriber {
  /**
   * Set when the subscriber wants one intent's events only: the feed hands it just those, found by a lookup,
   * so a change costs a call per stream of that intent instead of one per stream of the project (10,000
   * streams each watching one intent is the case bench/events.ts measures).
   */
  readonly intentId?: string | undefined;
  /** The next events of the project (of its intent, with `intentId`), in order. */
  receive(events: readonly FeedEvent[]): void;
}

export interface EventFeed {
  /** Follows the project (reading its latest number first, if this process does not follow it yet). */
  join(projectId: number, subscriber: FeedSubscriber): Promise<void>;
  leave(projectId: number, subscriber: FeedSubscriber): void;
  /** The number this process has read the project's log up to; undefined while nobody follows it. */
  position(projectId: number): number | undefined;
  /** Subscribers of every project. */
  readonly size: number;
  close(): void;
}

export interface EventFeedDeps {
  store: Pick<Store, 'eventLog' | 'events'>;
  log: Logger;
  pollMs?: number | undefined;
}

interface Followed {
  /** Undefined until the project's latest number has been read. */
  cursor: number | undefined;
  ready: Promise<void>;
  subscribers: Set<FeedSubscriber>;
  /** Subscribers with an `intentId`, by it. */
  byIntent: Map<string, Set<FeedSubscriber>>;
  /** Subscribers of every event of the project. */
  everything: Set<FeedSubscriber>;
}

export function createEventFeed(deps: EventFeedDeps): EventFeed {
  const { store, log } = deps;
  const projects = new Map<number, Followed>();
  let size = 0;
  let reading = false;
  let again = false;
  let closed = false;

  const readProject = async (projectId: number, followed: Followed) => {
    for (;;) {
      const after = followed.cursor;
      if (after === undefined || followed.subscribers.size === 0) return;
      const page = await store.eventLog.listAfter({ projectId, after, limit: FEED_PAGE });
      if (page.length === 0) return;
      followed.cursor = page.at(-1)!.seq;
      const events = page.map((record) => new FeedEvent(record));
      hand(projectId, followed.everything, events);
      if (followed.byIntent.size > 0) {
        for (const [intentId, ofIntent] of groupByIntent(events)) {
          const subscribers = followed.byIntent.get(intentId);
          if (subscribers) hand(projectId, subscribers, ofIntent);
        }
      }
      if (page.length < FEED_PAGE) return;
    }
  };

  const hand = (projectId: number, subscribers: Iterable<FeedSubscriber>, events: readonly FeedEvent[]) => {
    for (const subscriber of subscribers) {
      try {
        subscriber.receive(events);
      } catch (error) {
        log.warn('an event subscriber failed', { projectId, error });
      }
    }
  };

  const readAll = async () => {
    reading = true;
    try {
      do {
        again = false;
        for (const [projectId, followed] of projects) await readProject(projectId, followed);
      } while (again && !closed);
    } catch (error) {
      // The database is away: the next wake-up or poll reads from the same numbers.
      log.warn('reading the event log failed; retrying at the next change or poll', { error });
    } finally {
      reading = false;
    }
  };

  const wake = () => {
    if (closed || projects.size === 0) return;
    if (reading) again = true;
    else void readAll();
  };

  const unsubscribeAll = store.events.subscribeAll(wake);
  const unsubscribeMissed = store.events.subscribeMissed(wake);
  const poll = setInterval(wake, deps.pollMs ?? FEED_POLL_MS);
  poll.unref();

  const follow = (projectId: number): Followed => {
    const existing = projects.get(projectId);
    if (existing) return existing;
    const followed: Followed = {
      cursor: undefined,
      ready: Promise.resolve(),
      subscribers: new Set(),
      byIntent: new Map(),
      everything: new Set(),
    };
    followed.ready = store.eventLog.latest(projectId).then(
      (latest) => {
        followed.cursor = latest;
      },
      (error: unknown) => {
        // The next subscriber tries again.
        if (projects.get(projectId) === followed) projects.delete(projectId);
        throw error;
      },
    );
    projects.set(projectId, followed);
    return followed;
  };

  const add = (followed: Followed, subscriber: FeedSubscriber) => {
    if (followed.subscribers.has(subscriber)) return;
    followed.subscribers.add(subscriber);
    size++;
    const { intentId } = subscriber;
    if (intentId === undefined) {
      followed.everything.add(subscriber);
      return;
    }
    let ofIntent = followed.byIntent.get(intentId);
    if (!ofIntent) {
      ofIntent = new Set();
      followed.byIntent.set(intentId, ofIntent);
    }
    ofIntent.add(subscriber);
  };

  const remove = (projectId: number, followed: Followed, subscriber: FeedSubscriber) => {
    if (!followed.subscribers.delete(subscriber)) return;
    size--;
    followed.everything.delete(subscriber);
    const { intentId } = subscriber;
    const ofIntent = intentId === undefined ? undefined : followed.byIntent.get(intentId);
    if (ofIntent?.delete(subscriber) && ofIntent.size === 0) followed.byIntent.delete(intentId!);
    if (followed.subscribers.size === 0 && projects.get(projectId) === followed) projects.delete(projectId);
  };

  return {
    async join(projectId, subscriber) {
      const followed = follow(projectId);
      add(followed, subscriber);
      try {
        await followed.ready;
      } catch (error) {
        remove(projectId, followed, subscriber);
        throw error;
      }
    },
    leave(projectId, subscriber) {
      const followed = projects.get(projectId);
      if (followed) remove(projectId, followed, subscriber);
    },
    position: (projectId) => projects.get(projectId)?.cursor,
    get size() {
      return size;
    },
    close() {
      closed = true;
      clearInterval(poll);
      unsubscribeAll();
      unsubscribeMissed();
      projects.clear();
      size = 0;
    },
  };
}

function groupByIntent(events: readonly FeedEvent[]): Map<string, FeedEvent[]> {
  const groups = new Map<string, FeedEvent[]>();
  for (const event of events) {
    const group = groups.get(event.record.intentId);
    if (group) group.push(event);
    else groups.set(event.record.intentId, [event]);
  }
  return groups;
}
