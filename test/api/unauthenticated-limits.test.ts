/**
 * What an unauthenticated caller can make the server do: unknown or revoked keys are limited per client
 * address (refused RateLimited before the key is hashed and looked up, while keys that resolved keep
 * working), and RuntimeStatus shares one round of chain and database probes between calls.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { AccessKeyNotFoundError, RateLimitedError, TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_KEY_CACHE_TTL_MS, FAILED_AUTH_RATE_LIMIT } from '../../src/api/access.ts';
import { PROBE_RESULTS_TTL_MS } from '../../src/api/methods/runtime-status.ts';
import { type ApiServer, createApiServer } from '../../src/api/server.ts';
import { type AnvilInstance, startAnvil } from '../../src/chains/anvil.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { randomHex } from '../../src/store/testing.ts';
import { CHAINS } from './fixtures.ts';

/** Another client's address (a documentation range), given to the server in-process. */
const OTHER_CLIENT = '198.51.100.7';

const unknownKey = () => `sy_${randomHex(16).slice(2)}`;
/** RuntimeStatus's `uptime` ("42s") in seconds. */
const seconds = (uptime: string) => Number(uptime.replace(/s$/, ''));

/** GetChains with this key over a socket from 127.0.0.1; the raw status, Retry-After and error code. */
function getChainsFrom(url: string, key: string) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; retryAfter: string | undefined; code: number | undefined }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: hostname,
          port: Number(port),
          path: '/rpc/Trails/GetChains',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-access-key': key },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'],
              code: (JSON.parse(text) as { code?: number }).code,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end('{}');
    },
  );
}

describe('failed authentications per client address', () => {
  let store: Store;
  let server: ApiServer;
  let url: string;
  let clockMs = Date.now();
  let lookups = 0;
  let projectId: number;
  beforeAll(async () => {
    store = await createStore({ sqlitePath: ':memory:', log: createSilentLogger() });
    projectId = (await store.projects.create('limits')).id;
    // The real store, its key lookups counted.
    const counted: Store = {
      ...store,
      accessKeys: {
        ...store.accessKeys,
        resolve: (key) => {
          lookups++;
          return store.accessKeys.resolve(key);
        },
      },
    };
    // Production's limits (no rateLimit or failedAuthLimit option), on a clock the test moves.
    server = await createApiServer({
      chains: CHAINS,
      store: counted,
      log: createSilentLogger(),
      now: () => new Date(clockMs),
    });
    url = await server.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  /** GetChains from another client address (in-process: the request carries that peer address). */
  const getChainsAs = async (key: string, remoteAddress: string) => {
    const answer = await server.app.inject({
      method: 'POST',
      url: '/rpc/Trails/GetChains',
      headers: { 'content-type': 'application/json', 'x-access-key': key },
      payload: '{}',
      remoteAddress,
    });
    return { status: answer.statusCode, code: (answer.json() as { code?: number }).code };
  };

  /** Moves the clock until every address's allowance is full again and every cached key has expired. */
  const afterQuietSpell = () => {
    clockMs +=
      (FAILED_AUTH_RATE_LIMIT.burst / FAILED_AUTH_RATE_LIMIT.perSecond) * 1_000 + ACCESS_KEY_CACHE_TTL_MS;
  };

  /** Sends unknown keys until the address's allowance is spent; each is a 401 after a lookup. */
  const spendAllowance = async () => {
    const before = lookups;
    for (let i = 0; i < FAILED_AUTH_RATE_LIMIT.burst; i++) {
      const answer = await getChainsFrom(url, unknownKey());
      if (answer.status === 429) break;
      expect(answer).toMatchObject({ status: 401, code: 1101 });
    }
    return lookups - before;
  };

  it('answers unknown keys 401 up to the limit, then 429 with Retry-After without a lookup', async () => {
    const { key } = await store.accessKeys.create({ projectId });
    const api = new TrailsApi(key, { hostname: url });
    expect((await api.getChains({})).chains).toHaveLength(2);

    expect(await spendAllowance()).toBe(FAILED_AUTH_RATE_LIMIT.burst);
    const before = lookups;
    const refused = await getChainsFrom(url, unknownKey());
    expect(refused).toMatchObject({ status: 429, code: 1007 });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    const stranger = new TrailsApi(unknownKey(), { hostname: url });
    await expect(stranger.getChains({})).rejects.toBeInstanceOf(RateLimitedError);
    expect(lookups).toBe(before);

    // The project's own key from the same address still works, and so does another address's bad key.
    expect((await api.getChains({})).chains).toHaveLength(2);
    expect(await getChainsAs(unknownKey(), OTHER_CLIENT)).toMatchObject({ status: 401, code: 1101 });

    // The allowance refills at its rate: one more unknown key is looked up (401) after a second.
    clockMs += 1_000 / FAILED_AUTH_RATE_LIMIT.perSecond;
    expect(await getChainsFrom(url, unknownKey())).toMatchObject({ status: 401, code: 1101 });
    expect(await getChainsFrom(url, unknownKey())).toMatchObject({ status: 429, code: 1007 });
  });

  it('lets a key that resolved before pass a throttled address after its cache entry expired', async () => {
    afterQuietSpell();
    const { key } = await store.accessKeys.create({ projectId });
    const api = new TrailsApi(key, { hostname: url });
    expect((await api.getChains({})).chains).toHaveLength(2);
    clockMs += ACCESS_KEY_CACHE_TTL_MS + 1;
    await spendAllowance();
    expect(await getChainsFrom(url, unknownKey())).toMatchObject({ status: 429 });
    const before = lookups;
    expect((await api.getChains({})).chains).toHaveLength(2);
    expect(lookups).toBe(before + 1);
  });

  it('refuses a valid key this process never saw from a throttled address until the allowance refills', async () => {
    afterQuietSpell();
    await spendAllowance();
    const { key } = await store.accessKeys.create({ projectId });
    expect(await getChainsFrom(url, key)).toMatchObject({ status: 429, code: 1007 });
    expect(await getChainsAs(key, OTHER_CLIENT)).toMatchObject({ status: 200 });
    clockMs += 1_000 / FAILED_AUTH_RATE_LIMIT.perSecond;
    expect(await getChainsFrom(url, key)).toMatchObject({ status: 200 });
  });

  it('counts a revoked key as a failure once its cache entry expires', async () => {
    afterQuietSpell();
    const { key, accessKey } = await store.accessKeys.create({ projectId });
    const api = new TrailsApi(key, { hostname: url });
    expect((await api.getChains({})).chains).toHaveLength(2);
    await store.accessKeys.revoke({ projectId, idOrPrefix: String(accessKey.id) });
    clockMs += ACCESS_KEY_CACHE_TTL_MS + 1;
    await spendAllowance();
    await expect(api.getChains({})).rejects.toBeInstanceOf(AccessKeyNotFoundError);
    await expect(api.getChains({})).rejects.toBeInstanceOf(RateLimitedError);
  });
});

describe('RuntimeStatus probes', () => {
  const anvils: AnvilInstance[] = [];
  const proxies: Server[] = [];
  /** eth_chainId requests that reached each chain, by chain id. */
  const probes = new Map<number, number>();
  let databaseChecks = 0;
  let store: Store;
  let server: ApiServer;
  let url: string;
  let clockMs = Date.now();

  /** A pass-through in front of a real chain that counts the eth_chainId probes reaching it. */
  const countingProxy = async (anvil: AnvilInstance): Promise<string> => {
    const proxy = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', async () => {
        if ((JSON.parse(body) as { method?: string }).method === 'eth_chainId')
          probes.set(anvil.chainId, (probes.get(anvil.chainId) ?? 0) + 1);
        const answer = await fetch(anvil.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    proxies.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  };

  beforeAll(async () => {
    anvils.push(...(await Promise.all(CHAINS.map((c) => startAnvil({ chainId: c.chainId })))));
    const rpcUrls = await Promise.all(anvils.map(countingProxy));
    store = await createStore({ sqlitePath: ':memory:', log: createSilentLogger() });
    server = await createApiServer({
      chains: CHAINS.map((chain, i) => ({ ...chain, rpcUrls: [rpcUrls[i]!] })),
      store,
      checkDatabase: async () => {
        databaseChecks++;
        await store.ping();
      },
      log: createSilentLogger(),
      now: () => new Date(clockMs),
    });
    url = await server.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await Promise.all(proxies.map((p) => new Promise((resolve) => p.close(resolve))));
    await Promise.all(anvils.map((a) => a.stop()));
  });

  it('probes each chain and the database once for a flood of calls, and again after the TTL', async () => {
    const anonymous = new TrailsApi('', { hostname: url });
    const flood = await Promise.all(Array.from({ length: 30 }, () => anonymous.runtimeStatus()));
    for (const { status } of flood) {
      expect(status.healthOK).toBe(true);
      expect(status.services.map((s) => s.name)).toEqual(['chain:31337', 'chain:31338', 'database']);
    }
    for (let i = 0; i < 10; i++) await anonymous.runtimeStatus();
    expect(Object.fromEntries(probes)).toEqual({ 31337: 1, 31338: 1 });
    expect(databaseChecks).toBe(1);

    const before = seconds((await anonymous.runtimeStatus()).status.uptime);
    clockMs += PROBE_RESULTS_TTL_MS + 1_000;
    const { status } = await anonymous.runtimeStatus();
    expect(status.healthOK).toBe(true);
    expect(seconds(status.uptime)).toBeGreaterThan(before);
    expect(Object.fromEntries(probes)).toEqual({ 31337: 2, 31338: 2 });
    expect(databaseChecks).toBe(2);
  });
});
