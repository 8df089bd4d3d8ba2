/**
 * One open GET /events response. It resumes after Last-Event-ID from the log (catching up in pages until it
 * reaches what the process's feed has read), then takes the feed's pages as they come, sending the events
 * its filter keeps. Each message carries its event number as its SSE id, so a client that reconnects with
 * Last-Event-ID gets exactly the events after the last one it received.
 *
 * Held, a stream is this object and its response (no timer, no promise): the heartbeat is one timer for all
 * streams (event-stream-route.ts), and closing the connection removes the stream from the feed.
 */
import type { ServerResponse } from 'node:http';
import type { EventFeed, FeedSubscriber } from '../../events/event-feed.ts';
import { FeedEvent } from '../../events/feed-event.ts';
import type { Logger } from '../../internal/logger.ts';
import type { Store } from '../../store/index.ts';
import { matchesFilter, type StreamFilter } from './stream-request.ts';

/** Events per catch-up read from the log. */
const CATCH_UP_PAGE = 500;
/**
 * Unsent bytes a stream may hold for a client that does not read (bytes). Past it the connection is cut:
 * the client reconnects with its Last-Event-ID and catches up from the log, instead of this process
 * buffering without bound (~1,000 events of ~1 KB).
 */
export const MAX_UNSENT_BYTES = 1_048_576;

/** What every stream of one route shares. */
export interface StreamShared {
  feed: EventFeed;
  store: Pick<Store, 'eventLog'>;
  log: Logger;
  streams: Set<EventStream>;
  opened(): void;
  closed(): void;
}

/**
 * Why events a client asked for cannot be sent: an SSE `gap` message says so, then the stream goes on.
 * `deleted`: events `from`…`to` are past the log's retention. `beyond-latest`: Last-Event-ID is above the
 * project's latest event (`latest`), e.g. after the database was reset.
 */
export type Gap =
  | { reason: 'deleted'; from: number; to: number }
  | { reason: 'beyond-latest'; lastEventId: number; latest: number };

/** The message has no id, so the client's Last-Event-ID stays the last event it really received. */
export function gapFrame(gap: Gap): string {
  return `event: gap\ndata: ${JSON.stringify(gap)}\n\n`;
}

export class EventStream implements FeedSubscriber {
  private readonly shared: StreamShared;
  private readonly res: ServerResponse;
  private readonly projectId: number;
  private readonly filter: StreamFilter;
  /** The feed hands a stream of one intent only that intent's events. */
  readonly intentId: string | undefined;
  /** The last event number passed to this stream (sent, or left out by the filter). */
  private sent = 0;
  private live = false;
  private over = false;

  constructor(shared: StreamShared, res: ServerResponse, projectId: number, filter: StreamFilter) {
    this.shared = shared;
    this.res = res;
    this.projectId = projectId;
    this.filter = filter;
    this.intentId = filter.intentId;
  }

  /** The response's head is written; registers, catches up, then goes live. */
  async start(lastEventId: number | undefined): Promise<void> {
    this.shared.streams.add(this);
    this.shared.opened();
    this.res.once('close', this.close);
    if (this.res.destroyed) return this.close();
    // Joined first, so every event above the latest number read next is either on a page of the feed still
    // to come or read by the catch-up below.
    await this.shared.feed.join(this.projectId, this);
    if (this.over) return;
    const latest = await this.shared.store.eventLog.latest(this.projectId);
    if (lastEventId !== undefined && lastEventId > latest) {
      // Not this log's number (a database reset, another server): go on from now, saying so.
      this.gap({ reason: 'beyond-latest', lastEventId, latest });
    }
    this.sent = lastEventId === undefined || lastEventId > latest ? latest : lastEventId;
    await this.catchUp();
  }

  receive(events: readonly FeedEvent[]): void {
    if (this.live && !this.over) this.send(events);
  }

  /**
   * A comment line: keeps proxies from closing an idle connection, and finds dead ones. A stream still
   * catching up is writing events anyway.
   */
  heartbeat(): void {
    if (this.live && !this.over) this.write(':\n\n');
  }

  /** The server is closing: end the response (the client reconnects elsewhere with Last-Event-ID). */
  end(): void {
    if (!this.over) this.res.end();
  }

  readonly close = (): void => {
    if (this.over) return;
    this.over = true;
    this.live = false;
    this.shared.feed.leave(this.projectId, this);
    this.shared.streams.delete(this);
    this.shared.closed();
  };

  /** Reads the log after `sent` until it reaches the feed's position, then switches to the feed. */
  private async catchUp(): Promise<void> {
    const { feed, store } = this.shared;
    for (;;) {
      if (this.over) return;
      // Checked and switched in one turn of the event loop: no page of the feed can fall in between.
      const position = feed.position(this.projectId) ?? 0;
      if (this.sent >= position) {
        this.live = true;
        return;
      }
      const page = await store.eventLog.listAfter({
        projectId: this.projectId,
        after: this.sent,
        limit: CATCH_UP_PAGE,
      });
      if (page.length === 0) {
        // Everything up to the feed's position was deleted meanwhile.
        this.sent = position;
        continue;
      }
      if (page[0]!.seq > this.sent + 1)
        this.gap({ reason: 'deleted', from: this.sent + 1, to: page[0]!.seq - 1 });
      this.send(page.map((record) => new FeedEvent(record)));
    }
  }

  private send(events: readonly FeedEvent[]): void {
    let out = '';
    for (const event of events) {
      if (event.seq <= this.sent) continue;
      this.sent = event.seq;
      if (matchesFilter(this.filter, event.record)) out += event.sseFrame;
    }
    if (out !== '') this.write(out);
  }

  private gap(gap: Gap): void {
    this.write(gapFrame(gap));
  }

  private write(text: string): void {
    this.res.write(text);
    if (this.res.writableLength > MAX_UNSENT_BYTES) {
      this.shared.log.warn('event stream cut: the client does not read', { projectId: this.projectId });
      this.res.destroy();
    }
  }
}
