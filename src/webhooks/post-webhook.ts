/**
 * One webhook POST on node:http(s): the body and headers as given, redirects not followed (a 3xx is a
 * failure, like any answer outside 2xx), the answer's body read and dropped, a deadline on the whole
 * exchange, and the target guard on the address connected to. It never throws: the outcome (status or
 * error, latency) is what the delivery log records.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * The whole exchange's deadline (ms): a receiver should answer at once and work after; 10 s covers a slow
 * one without holding the endpoint's queue (and the dispatcher's slot) for long.
 */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An answer's body is read up to this and dropped (bytes): it is not used, only drained. */
const MAX_ANSWER_BYTES = 65_536;

export interface PostOutcome {
  /** The HTTP status; null when no answer came. */
  status: number | null;
  error: string | null;
  latencyMs: number;
}

export interface PostAgents {
  http: http.Agent;
  https: https.Agent;
}

export function createPostAgents(): PostAgents {
  // Keep-alive: an endpoint's events go out one after another to the same host.
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
}

export function postWebhook(input: {
  url: URL;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number | undefined;
  lookup?: LookupFunction | undefined;
  agents?: PostAgents | undefined;
}): Promise<PostOutcome> {
  const started = performance.now();
  const secure = input.url.protocol === 'https:';
  const transport = secure ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ status, error, latencyMs: performance.now() - started });
    };
    const request = transport.request(input.url, {
      method: 'POST',
      headers: {
        ...input.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(input.body),
      },
      ...(input.lookup && { lookup: input.lookup }),
      ...(input.agents && { agent: secure ? input.agents.https : input.agents.http }),
    });
    const timeoutMs = input.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const done = () => finish(response.statusCode ?? null, null);
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.on('error', (error) => finish(null, error.message));
    request.end(input.body);
  });
}
