/**
 * A `fetch` for viem's HTTP transport over node:http(s) with keep-alive agents. Under load undici's fetch
 * (Request/Response/stream objects per JSON-RPC call) was about a third of the process's CPU in the e2e
 * benchmark; JSON-RPC needs none of that: one POST with a small JSON body, one JSON answer read whole.
 * viem keeps its own request building, timeouts, retries and error classes; it only calls this instead of
 * the global fetch and reads `ok`, `status`, `headers.get()` and `text()` of what comes back.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { MAX_RPC_RESPONSE_BYTES, MAX_RPC_SOCKETS_PER_HOST } from './sender-constants.ts';

export interface KeepAliveFetch {
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the idle sockets (shutdown). */
  close(): void;
}

export function createKeepAliveFetch(): KeepAliveFetch {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: MAX_RPC_SOCKETS_PER_HOST }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: MAX_RPC_SOCKETS_PER_HOST }),
  };
  return {
    fetch(input, init = {}) {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:')
        return Promise.reject(new Error(`unsupported RPC URL protocol ${url.protocol}`));
      const body = typeof init.body === 'string' ? init.body : '';
      const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
      headers['content-length'] = String(Buffer.byteLength(body));
      return new Promise<Response>((resolve, reject) => {
        const req = (secure ? httpsRequest : httpRequest)(
          url,
          { method: init.method ?? 'POST', headers, agent: agents[url.protocol as 'http:' | 'https:'] },
          (res) => readAnswer(res).then(resolve, reject),
        );
        const signal = init.signal;
        const onAbort = () =>
          req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        req.on('close', () => signal?.removeEventListener('abort', onAbort));
        req.on('error', reject);
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

/** The whole answer as the few Response members viem reads (it throws its own errors on a bad status). */
function readAnswer(res: IncomingMessage): Promise<Response> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RPC_RESPONSE_BYTES) {
        res.destroy(new Error(`RPC response larger than ${MAX_RPC_RESPONSE_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = res.statusCode ?? 0;
      const answer = {
        ok: status >= 200 && status < 300,
        status,
        statusText: res.statusMessage ?? '',
        headers: {
          get: (name: string) => {
            const value = res.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
        },
        body: null,
        text: () => Promise.resolve(text),
        json: () => Promise.resolve(JSON.parse(text)),
      };
      resolve(answer as unknown as Response);
    });
  });
}
