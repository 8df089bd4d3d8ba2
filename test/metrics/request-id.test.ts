/**
 * `X-Request-Id` on every answer the API gives (a method, a webrpc error, the explorer, an answer to bytes
 * that never became a request) and in the server's log line about it; an id a proxy sent is kept. The
 * server's HTTP counters see each request once, under its method.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/api/server.ts';
import { createLogger } from '../../src/internal/logger.ts';
import { createPrometheusMetrics } from '../../src/metrics/create-prometheus-metrics.ts';
import { KEY, startTestServer } from '../api/fixtures.ts';

/** Ids the server makes: its prefix (8 hex digits) and a counter in base 36. */
const SERVER_ID = /^[0-9a-f]{8}-[0-9a-z]+$/;

let server: ApiServer;
let url: string;
const lines: Record<string, unknown>[] = [];
const prometheus = createPrometheusMetrics();

beforeAll(async () => {
  ({ server, url } = await startTestServer({
    log: createLogger({ format: 'json', write: (line) => lines.push(JSON.parse(line)) }),
    services: {
      Ping: () => {
        throw new Error('the handler broke');
      },
    },
    metrics: prometheus.metrics,
  }));
});
afterAll(async () => {
  await server?.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('X-Request-Id', () => {
  it('is on every answer, different per request, and a proxy’s id is kept', async () => {
    const answers = [
      await post('/rpc/Trails/GetChains', '{}', { 'x-access-key': KEY }),
      await post('/rpc/Trails/GetChains', '{}', { 'x-access-key': KEY }),
      await post('/rpc/Trails/GetChains', '{}'),
      await post('/rpc/Trails/NoSuchMethod', '{}'),
      await post('/rpc/Trails/GetChains', '{not json', { 'x-access-key': KEY }),
      await fetch(`${url}/rpc/Trails/GetChains`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400, 405]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(SERVER_ID);
    expect(new Set(ids).size).toBe(ids.length);

    const proxied = await post('/rpc/Trails/GetChains', '{}', {
      'x-access-key': KEY,
      'x-request-id': 'lb-42.a:b',
    });
    expect(proxied.headers.get('x-request-id')).toBe('lb-42.a:b');
    const odd = await post('/rpc/Trails/GetChains', '{}', {
      'x-access-key': KEY,
      'x-request-id': 'a b<script>',
    });
    expect(odd.headers.get('x-request-id')).toMatch(SERVER_ID);
  });

  it('is in the log line of an unexpected failure, the same as the answer’s', async () => {
    const answer = await post('/rpc/Trails/Ping', '{}');
    expect(answer.status).toBe(500);
    const id = answer.headers.get('x-request-id');
    expect(id).toMatch(SERVER_ID);
    const line = lines.find((l) => l.msg === 'unexpected error while answering a request');
    expect(line?.requestId).toBe(id);
  });

  it('is on answers to bytes that never became a request, and to an unsupported Expect', async () => {
    const malformed = await raw('GARBAGE\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    expect(malformed).toMatch(/\r\nx-request-id: [0-9a-f]{8}-[0-9a-z]+\r\n/i);
    const expectation = await raw(
      `POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(expectation).toMatch(/^HTTP\/1\.1 417 /);
    expect(expectation).toMatch(/\r\nx-request-id: [0-9a-f]{8}-[0-9a-z]+\r\n/i);
  });

  it('counts each request once under its method and status', async () => {
    const text = await prometheus.registry.metrics();
    expect(text).toContain('switchyard_http_requests_total{method="GetChains",status="200"} 4');
    expect(text).toContain('switchyard_http_requests_total{method="GetChains",status="401"} 1');
    expect(text).toContain('switchyard_http_requests_total{method="unmatched",status="404"} 1');
    expect(text).toContain('switchyard_http_requests_total{method="Ping",status="500"} 1');
  });
});

/** Sends raw bytes and returns the whole answer once the server closes the connection. */
function raw(bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}
