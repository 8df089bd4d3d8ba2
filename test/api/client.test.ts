/** The official client (`@0xtrails/api` 0.9.4), unmodified, against the server on a real port. */
import {
  AccessKeyNotFoundError,
  InvalidArgumentError,
  RateLimitedError,
  TrailsApi,
  UnauthorizedError,
  UnavailableError,
  UnsupportedNetworkError,
  WebrpcBadRouteError,
} from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_ALIASES, METHODS } from '../../src/api/schemas/methods.ts';
import type { ApiServer } from '../../src/api/server.ts';
import { KEY, post, startTestServer, USDC_A, WETH_B } from './fixtures.ts';

let server: ApiServer;
let url: string;
let api: TrailsApi;

beforeAll(async () => {
  ({ server, url } = await startTestServer());
  api = new TrailsApi(KEY, { hostname: `${url}/` });
});
afterAll(() => server.close());

describe('catalogue through the official client', () => {
  it('answers Ping, Clock and RuntimeStatus (no key needed)', async () => {
    const anonymous = new TrailsApi('', { hostname: url });
    expect((await anonymous.ping()).version).toBe('0.1.0');
    expect(Number.isNaN(Date.parse((await anonymous.clock()).serverTime))).toBe(false);
    const { status } = await anonymous.runtimeStatus();
    expect(status.healthOK).toBe(false); // the fixture's RPC URLs point at a closed port
    expect(status.services.map((s) => s.name)).toEqual(['chain:31337', 'chain:31338']);
  });

  it('lists chains in both forms and filters by route provider', async () => {
    const { chains } = await api.getChains({});
    expect(chains.map((c) => c.id)).toEqual([31337, 31338]);
    expect(chains[0]).toMatchObject({
      tokenSymbol: 'ETH',
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      blockExplorer: { url: 'https://explorer.a.example' },
    });
    expect((await api.getChains({ routeProvider: 'WETH' })).chains.map((c) => c.id)).toEqual([31337]);
    expect((await api.getChains({ routeProvider: 'CCTP' })).chains).toEqual([]);
    await expect(api.getChains({ routeProvider: 'TELEPORT' })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('lists tokens: featured first, native as the zero address, search, limit and exclusions', async () => {
    const { tokens } = await api.getTokenList({ chainIds: [31337] });
    expect(tokens.map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'DAI']);
    expect(tokens[0]!.address).toBe('0x0000000000000000000000000000000000000000');
    const usdc = await api.getTokenList({
      chainIds: [31337, 31338],
      searchQuery: 'usd',
      includeAllListed: true,
    });
    expect(usdc.tokens.map((t) => t.address)).toEqual([USDC_A]);
    expect((await api.getTokenList({ chainIds: [31337, 31338], limit: 1 })).tokens).toHaveLength(2);
    const excluded = await api.getTokenList({ chainIds: [31337], excludeTokens: [USDC_A.toLowerCase()] });
    expect(excluded.tokens.map((t) => t.symbol)).toEqual(['ETH', 'DAI']);
    await expect(api.getTokenList({ chainIds: [1] })).rejects.toBeInstanceOf(UnsupportedNetworkError);
  });

  it('prices tokens, echoing each token as sent and in order', async () => {
    const tokens = [
      { chainId: 31338, tokenAddress: WETH_B, tokenSymbol: WETH_B },
      { chainId: 31337, tokenAddress: USDC_A, tokenSymbol: 'USDC' },
    ];
    const { tokenPrices } = await api.getTokenPrices({ tokens });
    expect(tokenPrices.map((p) => p.token)).toEqual(tokens);
    expect(tokenPrices.map((p) => p.priceUsd)).toEqual([undefined, 1]);
    expect(Number.isNaN(Date.parse(tokenPrices[0]!.updatedAt))).toBe(false);
  });

  it('returns contract addresses under the capitalised TrailsContracts member', async () => {
    const { TrailsContracts } = await api.getTrailsContracts();
    expect(TrailsContracts.trailsIntentEntrypointAddress).toBe(`0x${'1'.repeat(40)}`);
  });

  it('answers routes from and to a listed token', async () => {
    const input = await api.getExactInputRoutes({ originChainId: 31337, originTokenAddress: USDC_A });
    expect(input.tokens.map((t) => `${t.chainId}:${t.symbol}`)).toEqual([
      '31337:ETH',
      '31337:DAI',
      '31338:ETH',
      '31338:WETH',
    ]);
    const output = await api.getExactOutputRoutes({
      destinationChainId: 31338,
      destinationTokenAddress: WETH_B,
      originChainId: 31337,
    });
    expect(output.tokens.map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'DAI']);
  });
});

describe('errors through the official client', () => {
  it('an unknown key is AccessKeyNotFound (1101); a missing key is Unauthorized (1000)', async () => {
    const wrong = new TrailsApi('nope', { hostname: url });
    await expect(wrong.getChains({})).rejects.toBeInstanceOf(AccessKeyNotFoundError);
    const none = new TrailsApi('', { hostname: url });
    await expect(none.getChains({})).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a bad argument is InvalidArgument naming the field in message and cause', async () => {
    const error = await api
      .quoteIntent({
        ownerAddress: '0x12',
        originChainId: 31337,
        originTokenAddress: USDC_A,
        destinationChainId: 31338,
        destinationTokenAddress: WETH_B,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/^ownerAddress: must be a 20-byte hex address/);
    expect((error as Error).cause).toBe('field=ownerAddress');
  });

  it('a method whose service is absent is Unavailable with a clear message', async () => {
    const error = await api
      .quoteIntent({
        ownerAddress: USDC_A,
        originChainId: 31337,
        originTokenAddress: USDC_A,
        destinationChainId: 31338,
        destinationTokenAddress: WETH_B,
        originTokenAmount: 10n ** 30n,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toBe('QuoteIntent is not available on this server yet');
  });

  it('an unknown method is WebrpcBadRoute', async () => {
    const raw = await post(url, '/rpc/Trails/NoSuchMethod', {}, { 'x-access-key': KEY });
    expect(raw.status).toBe(404);
    expect(raw.json.code).toBe(-2);
    expect(new WebrpcBadRouteError().code).toBe(-2);
  });
});

describe('wire', () => {
  it('serves every method on both dialects (no route is missing)', async () => {
    const names = [...Object.keys(METHODS), ...Object.keys(METHOD_ALIASES)];
    for (const dialect of ['Trails', 'Service']) {
      for (const name of names) {
        const { json } = await post(url, `/rpc/${dialect}/${name}`, {}, { 'x-access-key': KEY });
        expect(json.code, `${dialect}/${name}`).not.toBe(-2);
      }
    }
  });

  it('speaks the seed names as plain JSON on /rpc/Service and accepts them on /rpc/Trails', async () => {
    const service = await post(url, '/rpc/Service/GetServiceContracts', {}, { 'x-access-key': KEY });
    expect(Object.keys(service.json.ServiceContracts)).toEqual([
      'serviceIntentEntrypointAddress',
      'serviceRouterAddress',
      'serviceRouterShimAddress',
    ]);
    const quote = {
      ownerAddress: USDC_A,
      originChainId: 31337,
      originTokenAddress: USDC_A,
      destinationChainId: 31338,
      destinationTokenAddress: WETH_B,
      options: { serviceAddressOverrides: { serviceWalletUtilsAddress: 'zz' } },
    };
    const bad = await post(url, '/rpc/Trails/QuoteIntent', quote, { 'x-access-key': KEY });
    expect(bad.json.code).toBe(2000);
    expect(bad.json.msg).toMatch(/AddressOverrides\.[a-zA-Z]+UtilsAddress: must be a 20-byte hex address/);
  });

  it('names amount fields that are fractional, negative, unsafe or not numbers', async () => {
    const base = {
      ownerAddress: USDC_A,
      originChainId: 31337,
      originTokenAddress: USDC_A,
      destinationChainId: 31338,
      destinationTokenAddress: WETH_B,
    };
    for (const originTokenAmount of [1.5, -1, 2 ** 60, '1.5', 'abc', '0x10', true]) {
      const r = await post(
        url,
        '/rpc/Service/QuoteIntent',
        { ...base, originTokenAmount },
        { 'x-access-key': KEY },
      );
      expect(r.json, String(originTokenAmount)).toMatchObject({
        code: 2000,
        msg: 'originTokenAmount: must be a non-negative integer in base units (a decimal string)',
      });
    }
  });

  it('answers CORS pre-flights and puts Access-Control-Allow-Origin on every response', async () => {
    const preflight = await fetch(`${url}/rpc/Trails/GetChains`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'content-type, webrpc, x-access-key, authorization, last-event-id',
    );
    const error = await post(url, '/rpc/Trails/GetChains', {}, { origin: 'https://app.example' });
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses non-POST methods and malformed JSON with JSON errors', async () => {
    const get = await fetch(`${url}/rpc/Trails/Ping`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { code: number }).code).toBe(-3);
    const broken = await post(url, '/rpc/Trails/Ping', '{"a":');
    expect(broken.status).toBe(400);
    expect(broken.json.code).toBe(-4);
  });
});

describe('rate limits', () => {
  it('answers RateLimited with Retry-After once the key exhausts its bucket', async () => {
    const limited = await startTestServer({ rateLimit: { perSecond: 1, burst: 3 } });
    try {
      const client = new TrailsApi(KEY, { hostname: limited.url });
      for (let i = 0; i < 3; i++) await client.getChains({});
      await expect(client.getChains({})).rejects.toBeInstanceOf(RateLimitedError);
      const raw = await post(limited.url, '/rpc/Trails/GetChains', {}, { 'x-access-key': KEY });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Public methods are not rate limited per key.
      expect((await client.ping()).version).toBe('0.1.0');
    } finally {
      await limited.server.close();
    }
  });
});
