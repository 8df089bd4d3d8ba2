/**
 * A real webhook receiver on loopback (node:http): it records every POST (headers and the raw body) and
 * answers 204, or what `answer` says. It can be stopped and started again on the same port, to stand for a
 * receiver that is down for a while.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stablePort } from '../../harness/free-port.ts';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: number; type: string; createdAt: string; data: Record<string, unknown> };
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status to answer the next request with (default 204). */
  answer: (received: Received) => number;
  /** Resolves once `predicate` holds for what was received. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  /** Stops listening (connections refused) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const DEFAULT_WAIT_MS = 60_000;

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const waiters = new Set<() => void>();
  let server: http.Server | undefined;
  // Below the ephemeral range, so no outgoing connection takes it while the receiver is stopped.
  let port = await stablePort();
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 204,
    until(predicate, timeoutMs = DEFAULT_WAIT_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver.received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(receiver.received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `receiver: not there after ${timeoutMs} ms; got ${receiver.received.map((r) => r.body).join('\n')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async start() {
      if (server) return;
      server = http.createServer((request, response) => {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => {
          body += chunk;
        });
        request.on('end', () => {
          const received: Received = {
            headers: request.headers,
            body,
            json: JSON.parse(body),
            at: Date.now(),
          };
          const status = request.url === path && request.method === 'POST' ? receiver.answer(received) : 404;
          if (status >= 200 && status < 300) receiver.received.push(received);
          response.writeHead(status).end();
          for (const waiter of [...waiters]) waiter();
        });
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
      port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}${path}`;
    },
  };
  await receiver.start();
  return receiver;
}
