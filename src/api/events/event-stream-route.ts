/**
 * GET /events: the project's intent events as Server-Sent Events (docs/api.md, "Event stream"). The access
 * key comes in X-Access-Key or, for browsers' EventSource (which cannot set headers), `?accessKey=`; it is
 * checked and rate-limited like any method's. Errors before the stream starts (no key, a bad filter) are
 * the usual webrpc JSON errors; after that the response is `text/event-stream` until either side closes.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createEventFeed, type EventFeed } from '../../events/event-feed.ts';
import type { EventsObserver } from '../../events/observer.ts';
import { SwitchyardError } from '../../internal/errors.ts';
import type { Logger } from '../../internal/logger.ts';
import type { Store } from '../../store/index.ts';
import type { AccessControl } from '../access.ts';
import { RpcError } from '../errors/rpc-errors.ts';
import { EventStream, type StreamShared } from './event-stream.ts';
import { parseStreamRequest } from './stream-request.ts';

/**
 * Between heartbeats (ms): under the 30–60 s idle time-outs of common proxies and load balancers, and
 * 10,000 streams cost one small write each per interval.
 */
export const HEARTBEAT_MS = 15_000;
const ROUTE = 'GET /events';

export interface EventStreamOptions {
  heartbeatMs?: number | undefined;
  /** The feed's read when no notification came (event-feed.ts FEED_POLL_MS). */
  feedPollMs?: number | undefined;
  observer?: EventsObserver | undefined;
}

export interface EventStreamDeps extends EventStreamOptions {
  store: Pick<Store, 'eventLog' | 'events'>;
  access: AccessControl;
  log: Logger;
}

/** No key at all: the message names both places a key can go. */
export class MissingStreamKeyError extends RpcError {
  override readonly name = 'MissingStreamKeyError';
  readonly rpc = 'Unauthorized' as const;
  constructor() {
    super(`${ROUTE} needs an access key: send it in the X-Access-Key header or as ?accessKey=`);
  }
}

export function registerEventStream(app: FastifyInstance, deps: EventStreamDeps): void {
  const log = deps.log.child({ component: 'event-stream' });
  const feed: EventFeed = createEventFeed({ store: deps.store, log, pollMs: deps.feedPollMs });
  const streams = new Set<EventStream>();
  const shared: StreamShared = {
    feed,
    store: deps.store,
    log,
    streams,
    opened: () => deps.observer?.streamsChanged?.(streams.size),
    closed: () => deps.observer?.streamsChanged?.(streams.size),
  };
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.heartbeat();
  }, deps.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const stream of streams) stream.end();
    feed.close();
  });

  app.get('/events', {
    // A HEAD would open a stream with no body to send; it is answered like any other non-POST route.
    exposeHeadRoute: false,
    onRequest: async (request: FastifyRequest) => {
      const resolved = await deps.access.authorize(accessKeyOf(request), ROUTE, request.ip);
      request.switchyardProjectId = resolved.projectId;
    },
    handler: async (request, reply) => {
      const { filter, lastEventId } = parseStreamRequest(
        request.query as Record<string, unknown>,
        request.headers['last-event-id'],
      );
      const projectId = request.switchyardProjectId;
      if (projectId === undefined) throw new SwitchyardError('GET /events: the request has no project');
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx would otherwise hold the events in its buffer.
        'x-accel-buffering': 'no',
      });
      // The first bytes: the client's `open` fires now, not at the first event.
      reply.raw.write(':\n\n');
      const stream = new EventStream(shared, reply.raw, projectId, filter);
      stream.start(lastEventId).catch((error: unknown) => {
        // The head is out: the only answer left is to end the stream (the client reconnects).
        log.warn('event stream failed to start', { projectId, error });
        reply.raw.destroy();
      });
    },
  });
}

function accessKeyOf(request: FastifyRequest): string {
  const header = request.headers['x-access-key'];
  const key =
    (Array.isArray(header) ? header[0] : header) ?? (request.query as { accessKey?: unknown }).accessKey;
  if (typeof key !== 'string' || key === '') throw new MissingStreamKeyError();
  return key;
}
