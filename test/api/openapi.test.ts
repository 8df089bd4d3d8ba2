/**
 * docs/openapi.json against the code and the running server: current, every method, and exactly the GET
 * routes the API listener registers (with a store, so GET /events is served; the explorer's HTML pages left
 * out), each answering with a documented status; /events's parameters as the route parses them; /metrics as
 * the metrics listener serves it.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_QUERY_PARAMETERS } from '../../src/api/events/stream-request.ts';
import { METHODS } from '../../src/api/schemas/methods.ts';
import type { ApiServer } from '../../src/api/server.ts';
import { renderOpenApi } from '../../src/api/write-openapi.ts';
import { EXPLORER_PATH } from '../../src/explorer/constants.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { startMetricsServer } from '../../src/metrics/start-metrics-server.ts';
import { openTestStore, type TestStore } from '../harness/test-store.ts';
import { startTestServer } from './fixtures.ts';

interface Operation {
  servers?: unknown[];
  parameters?: { name: string; in: string }[];
  security?: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Doc {
  paths: Record<string, { get?: Operation; post?: Operation }>;
  components: { securitySchemes: Record<string, { in: string; name: string }> };
}

const doc = JSON.parse(renderOpenApi()) as Doc;
const getPaths = (onApiListener: boolean) =>
  Object.entries(doc.paths)
    .filter(([, item]) => item.get && (item.get.servers === undefined) === onApiListener)
    .map(([path]) => path)
    .sort();

/** The GET routes as Fastify prints them: a nested line continues its parent's path. */
function registeredGetRoutes(app: FastifyInstance): string[] {
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ method: 'GET', commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes[depth] = (depth > 0 ? prefixes[depth - 1]! : '') + match[2]!;
    if (match[3]?.split(', ').includes('GET')) routes.push(prefixes[depth]!);
  }
  return routes.sort();
}

describe('docs/openapi.json', () => {
  it('is current (regenerate with npm run openapi)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpenApi());
  });

  it('describes every method', () => {
    const rpc = Object.keys(doc.paths).filter((path) => path.startsWith('/rpc/'));
    expect(rpc.sort()).toEqual(
      Object.keys(METHODS)
        .map((m) => `/rpc/Trails/${m}`)
        .sort(),
    );
  });

  it('describes the plain-HTTP routes programs call', () => {
    expect(getPaths(true)).toEqual(expect.arrayContaining(['/events', '/healthz', '/readyz']));
    expect(getPaths(false)).toEqual(['/metrics']);
  });

  it('describes the query parameters and key places GET /events takes', () => {
    const events = doc.paths['/events']!.get!;
    const query = events.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    const keyParameters = events
      .security!.map((s) => doc.components.securitySchemes[Object.keys(s)[0]!]!)
      .filter((scheme) => scheme.in === 'query')
      .map((scheme) => scheme.name);
    expect([...query, ...keyParameters].sort()).toEqual([...STREAM_QUERY_PARAMETERS].sort());
  });
});

describe("docs/openapi.json and the API listener's GET routes", () => {
  let store: TestStore;
  let server: ApiServer;
  let url: string;
  beforeAll(async () => {
    store = await openTestStore('openapi');
    ({ server, url } = await startTestServer({ store: store.store, explorer: { clients: new Map() } }));
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('documents every GET route but the explorer pages, and no other', () => {
    const routes = registeredGetRoutes(server.app).filter((r) => !r.startsWith(EXPLORER_PATH));
    expect(routes).toEqual(getPaths(true));
  });

  it('answers each documented GET route with a documented status', async () => {
    for (const path of getPaths(true)) {
      // Without a key GET /events answers at once (401) instead of opening a stream.
      const response = await fetch(`${url}${path}`);
      // Read to the end: a cancelled body left the connection open, and close() waited ~70 s for it.
      await response.text();
      expect(Object.keys(doc.paths[path]!.get!.responses), path).toContain(String(response.status));
    }
  });
});

describe("docs/openapi.json and the metrics listener's route", () => {
  it('serves GET /metrics with the documented content type', async () => {
    const metrics = await startMetricsServer({
      registry: new Registry(),
      listen: { host: '127.0.0.1', port: 0 },
      log: createSilentLogger(),
    });
    try {
      const response = await fetch(metrics.url);
      await response.text();
      const documented = doc.paths['/metrics']!.get!.responses['200']!.content!;
      expect(response.status).toBe(200);
      expect(Object.keys(documented)).toEqual([response.headers.get('content-type')]);
    } finally {
      await metrics.close();
    }
  });
});
