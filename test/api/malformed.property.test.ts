/**
 * Thousands of malformed bodies to every method: never a 5xx, always a JSON body with a numeric
 * code, and the server still answers Ping afterwards. Driven in-process (`inject`) for speed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../src/api/schemas/methods.ts';
import type { ApiServer } from '../../src/api/server.ts';
import { KEY, startTestServer } from './fixtures.ts';

const METHOD_NAMES = Object.keys(METHODS);
/** Runs per property: with ~21 methods this is a few thousand requests in total. */
const RUNS = 1_500;

let server: ApiServer;
beforeAll(async () => {
  ({ server } = await startTestServer({ bodyLimitBytes: 64 * 1024 }));
});
afterAll(() => server.close());

const deep = fc.integer({ min: 1, max: 5_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
const deepObject = fc.integer({ min: 1, max: 2_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
const hugeNumber = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '0.0000001', 'NaN');
/** A body that takes a valid-looking member of a method's schema and puts a wrong type in it. */
const wrongTypes = fc
  .record({
    key: fc.constantFrom(
      'intentId',
      'chainIds',
      'tokens',
      'originChainId',
      'originTokenAmount',
      'intent',
      'page',
      'ownerAddress',
      'routeProvider',
      'depositSignature',
      'lastReceiptStates',
      '__proto__',
      'constructor',
    ),
    value: fc.jsonValue({ maxDepth: 4 }),
  })
  .map(({ key, value }) => JSON.stringify({ [key]: value }));

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  wrongTypes,
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  deep,
  deepObject,
  hugeNumber.map((n) => `{"originTokenAmount":${n},"chainIds":[${n}],"intentId":${n}}`),
  fc.constant('x'.repeat(70 * 1024)),
);

describe('malformed requests', () => {
  it('never get a 5xx or a non-JSON answer, on any method or dialect', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHOD_NAMES),
        fc.constantFrom('Trails', 'Service'),
        body,
        fc.boolean(),
        async (method, dialect, payload, withKey) => {
          const response = await server.app.inject({
            method: 'POST',
            url: `/rpc/${dialect}/${method}`,
            payload,
            headers: { 'content-type': 'application/json', ...(withKey ? { 'x-access-key': KEY } : {}) },
          });
          // RuntimeStatus probes closed ports and answers 200; everything else here is a 4xx.
          expect(response.statusCode).toBeLessThan(500);
          const json = JSON.parse(response.body);
          if (response.statusCode >= 300) expect(typeof json.code).toBe('number');
        },
      ),
      { numRuns: RUNS },
    );
    const ping = await server.app.inject({ method: 'POST', url: '/rpc/Trails/Ping', payload: '{}' });
    expect(JSON.parse(ping.body)).toEqual({ version: '0.1.0' });
  });
});
