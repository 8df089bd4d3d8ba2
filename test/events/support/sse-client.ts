/**
 * A Server-Sent Events client for tests, on node:http (Node 20 has no EventSource): it parses the stream as
 * the EventSource algorithm does (fields `id`, `event`, `data`; comment lines; a blank line ends a message)
 * and keeps every message and comment received, so a test can wait for what it expects.
 */
import http from 'node:http';
import type { WireEvent } from '../../../src/events/wire-event.ts';

export interface SseMessage {
  /** The `id` field; undefined when the message had none. */
  id: string | undefined;
  /** `message` unless the `event` field named another. */
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  messages: SseMessage[];
  /** Comment lines (heartbeats) received. */
  comments: number;
  /** The `id` of the last message that had one: what an EventSource sends as Last-Event-ID. */
  lastEventId(): string | undefined;
  /** The body, for a response that is not a stream (an error). */
  body(): Promise<string>;
  /** Resolves once `predicate` holds for the messages received (checked on every message). */
  until(predicate: (messages: SseMessage[]) => boolean, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close(): void;
}

const DEFAULT_WAIT_MS = 60_000;

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const messages: SseMessage[] = [];
      const waiters = new Set<() => void>();
      let raw = '';
      let buffer = '';
      let pending: { id?: string; event?: string; data: string[] } = { data: [] };
      let lastId: string | undefined;
      const connection: SseConnection = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        comments: 0,
        lastEventId: () => lastId,
        body: () => connection.ended.then(() => raw),
        until(predicate, timeoutMs = DEFAULT_WAIT_MS) {
          return new Promise((done, fail) => {
            const check = () => {
              if (!predicate(messages)) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(messages);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`SSE: not there after ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        ended: new Promise((done) => {
          response.on('close', () => done());
        }),
        close: () => request.destroy(),
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let at = buffer.indexOf('\n');
        while (at !== -1) {
          const line = buffer.slice(0, at).replace(/\r$/, '');
          buffer = buffer.slice(at + 1);
          if (line === '') {
            if (pending.data.length > 0) {
              if (pending.id !== undefined) lastId = pending.id;
              messages.push({
                id: pending.id,
                event: pending.event ?? 'message',
                data: pending.data.join('\n'),
              });
            }
            pending = { data: [] };
          } else if (line.startsWith(':')) {
            connection.comments++;
          } else {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') pending.id = value;
            if (field === 'event') pending.event = value;
            if (field === 'data') pending.data.push(value);
          }
          at = buffer.indexOf('\n');
        }
        for (const waiter of [...waiters]) waiter();
      });
      response.on('error', () => {});
      resolve(connection);
    });
    request.on('error', reject);
  });
}

/** The parsed JSON of the messages that are events (not `gap` notices). */
export function eventsOf(messages: SseMessage[]): WireEvent[] {
  return messages.filter((m) => m.event === 'message').map((m) => JSON.parse(m.data) as WireEvent);
}
