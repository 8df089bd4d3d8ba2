import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoDelaySockets } from './postgres-socket.ts';

/** Node keeps a socket's noDelay wish under a private symbol until it connects, then applies it. */
function noDelayOf(socket: net.Socket): unknown {
  const key = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'kSetNoDelay');
  return key === undefined ? undefined : (socket as unknown as Record<symbol, unknown>)[key];
}

let server: net.Server;
let port: number;

beforeAll(async () => {
  server = net.createServer((socket) => socket.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createNoDelaySockets', () => {
  it('connects to the target with TCP_NODELAY and names its host and port for postgres.js', async () => {
    const socket = createNoDelaySockets()({ host: ['127.0.0.1'], port: [port] });
    await once(socket, 'connect');
    expect(noDelayOf(socket)).toBe(true);
    expect(socket).toMatchObject({ host: '127.0.0.1', port, remotePort: port });
    socket.destroy();
  });

  it('takes the hosts in turn, one per connection', async () => {
    const sockets = createNoDelaySockets();
    const target = { host: ['127.0.0.1', 'localhost'], port: [port, port] };
    const opened = [sockets(target), sockets(target), sockets(target)];
    expect(opened.map((s) => (s as unknown as { host: string }).host)).toEqual([
      '127.0.0.1',
      'localhost',
      '127.0.0.1',
    ]);
    for (const s of opened) s.destroy();
  });

  it('reports a refused connection as the socket’s error, for postgres.js to handle as its own', async () => {
    const closed = net.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const freePort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const socket = createNoDelaySockets()({ host: ['127.0.0.1'], port: [freePort] });
    const [error] = (await once(socket, 'error').catch((e: unknown) => [e])) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
  });
});
