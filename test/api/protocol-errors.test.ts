/**
 * Requests Node or Fastify would refuse with their own bodies (a head over 16 KB, an unparsable request, no
 * Host, an unsupported Expect, a URL that does not decode, a request arriving while the server shuts down)
 * answer the webrpc error body with CORS, like every other failure. Sent as raw bytes on a socket, since no
 * well-behaved client can send most of them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/api/server.ts';
import { KEY, startTestServer } from './fixtures.ts';

const ALLOWED_ORIGIN = 'https://app.example';
/** One byte past Node's default limit on a request head (http.maxHeaderSize, 16 KiB). */
const OVERSIZE_HEADER = 'a'.repeat(16 * 1024 + 1);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error?: string; code?: number; msg?: string; message?: string; status?: number };
}

/** Sends bytes, reads until the server closes (or `untilAnswers` complete answers arrived). */
function exchange(url: string, bytes: string, untilAnswers = 1): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const finish = () => {
      socket.destroy();
      resolve(parseAnswers(text));
    };
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (parseAnswers(text).length >= untilAnswers) finish();
    });
    socket.on('close', finish);
    socket.on('error', reject);
  });
}

function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) return answers;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length']);
    const bodyStart = headEnd + 4;
    if (!Number.isInteger(length) || rest.length < bodyStart + length) return answers;
    answers.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: JSON.parse(rest.slice(bodyStart, bodyStart + length)),
    });
    rest = rest.slice(bodyStart + length);
  }
}

/** The webrpc error body, as every other failure has it. */
function expectWebrpcError(answer: RawAnswer, status: number, code: number, text: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.body).toMatchObject({ code, status });
  expect(answer.body.msg).toMatch(text);
  expect(answer.body.message).toBe(answer.body.msg);
}

describe('requests refused before they reach a method', () => {
  let server: ApiServer;
  let url: string;
  let listed: { server: ApiServer; url: string };
  beforeAll(async () => {
    ({ server, url } = await startTestServer());
    listed = await startTestServer({ cors: { allowedOrigins: [ALLOWED_ORIGIN] } });
  });
  afterAll(async () => {
    await server.close();
    await listed.server.close();
  });

  it('answers a header over 16 KB with 431 in the webrpc shape, with CORS', async () => {
    const response = await fetch(`${url}/rpc/Trails/Ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-padding': OVERSIZE_HEADER },
      body: '{}',
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      error: 'WebrpcBadRequest',
      code: -4,
      msg: 'request headers exceed the 16384-byte limit',
      message: 'request headers exceed the 16384-byte limit',
      status: 431,
    });
  });

  it('echoes an allowed origin on the 431, read from the refused head', async () => {
    const [answer] = await exchange(
      listed.url,
      `POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nOrigin: ${ALLOWED_ORIGIN}\r\nX-Padding: ${OVERSIZE_HEADER}\r\n\r\n`,
    );
    expectWebrpcError(answer!, 431, -4, /request headers exceed/);
    expect(answer!.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    const [other] = await exchange(
      listed.url,
      `POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\nX-Padding: ${OVERSIZE_HEADER}\r\n\r\n`,
    );
    expectWebrpcError(other!, 431, -4, /request headers exceed/);
    expect(other!.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n', /malformed HTTP request: Invalid method/],
    ['an unknown HTTP version', 'POST /rpc/Trails/Ping HTTP/9.9\r\nHost: x\r\n\r\n', /Invalid HTTP version/],
    [
      'a header name with a space',
      'POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
      /Invalid header token/,
    ],
    [
      'broken chunked framing',
      'POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      /chunk size/,
    ],
    [
      'two Content-Length headers',
      'POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
      /Content-Length/,
    ],
  ])('answers %s with 400 WebrpcBadRequest and CORS, then closes', async (_name, bytes, text) => {
    const [answer] = await exchange(url, bytes);
    expectWebrpcError(answer!, 400, -4, text);
    expect(answer!.body.error).toBe('WebrpcBadRequest');
    expect(answer!.headers['access-control-allow-origin']).toBe('*');
    expect(answer!.headers.connection).toBe('close');
  });

  it('answers an HTTP/1.1 request without Host with 400 WebrpcBadRequest', async () => {
    const [answer] = await exchange(url, 'POST /rpc/Trails/Ping HTTP/1.1\r\nContent-Length: 0\r\n\r\n');
    expectWebrpcError(answer!, 400, -4, /must carry a Host header/);
    expect(answer!.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers an Expect other than 100-continue with 417 in the webrpc shape', async () => {
    const [answer] = await exchange(
      url,
      'POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 0\r\n\r\n',
    );
    expectWebrpcError(answer!, 417, -4, /Expect: teapot is not supported/);
    expect(answer!.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a URL that does not decode with 400 WebrpcBadRequest and CORS', async () => {
    const [answer] = await exchange(
      listed.url,
      `POST /rpc/Trails/Ping%zz HTTP/1.1\r\nHost: x\r\nOrigin: ${ALLOWED_ORIGIN}\r\nContent-Length: 0\r\n\r\n`,
    );
    expectWebrpcError(answer!, 400, -4, /is not a valid url component/);
    expect(answer!.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
  });

  it('still answers well-formed requests on the same server', async () => {
    const response = await fetch(`${url}/rpc/Trails/Ping`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: '0.1.0' });
  });
});

describe('a request arriving while the server shuts down', () => {
  it('answers 503 Unavailable in the webrpc shape with Retry-After', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const { server, url } = await startTestServer({
      services: {
        GetChains: async () => {
          markStarted();
          await held;
          return { chains: [] };
        },
      },
    });
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    // A call in flight keeps the connection open through close(); the next request on it arrives too late.
    socket.write(
      `POST /rpc/Trails/GetChains HTTP/1.1\r\nHost: x\r\nX-Access-Key: ${KEY}\r\nContent-Length: 2\r\n\r\n{}`,
    );
    await started;
    const closing = server.close();
    socket.write('POST /rpc/Trails/Ping HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    // Let the second request be read before the first one's answer frees the connection.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await closed;
    await closing;
    const [first, second] = parseAnswers(text);
    expect(first!.status).toBe(200);
    expectWebrpcError(second!, 503, 2002, /shutting down/);
    expect(second!.body.error).toBe('Unavailable');
    expect(second!.headers['retry-after']).toBe('1');
    expect(second!.headers['access-control-allow-origin']).toBe('*');
  });
});
