/**
 * The engine's clients send the requests issued together as one JSON-RPC batch on a chain whose
 * `rpcBatchSize` is above 1, and each request alone otherwise (and always for the quote's clients); an
 * error answer for one item of a batch fails that request only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../internal/config-types.ts';
import { createChainClients } from './create-chain-clients.ts';
import { createKeepAliveFetch } from './keep-alive-fetch.ts';

type RpcCall = { id: number; method: string; params: unknown[] };

/** A JSON-RPC endpoint that counts HTTP requests; eth_getBalance of REVERTING answers an error. */
const REVERTING = '0x00000000000000000000000000000000000000ee';
let server: Server;
let url: string;
const httpBodies: unknown[] = [];
const answer = (call: RpcCall) =>
  call.params[0] === REVERTING
    ? { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'header not found' } }
    : { jsonrpc: '2.0', id: call.id, result: '0x2a' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(text) as RpcCall | RpcCall[];
      httpBodies.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const rpcFetch = createKeepAliveFetch();
afterAll(() => rpcFetch.close());

function chain(rpcBatchSize: number | undefined): ChainConfig {
  return {
    chainId: 1,
    name: 'one',
    rpcUrls: [url],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: 1,
    ...(rpcBatchSize !== undefined && { rpcBatchSize }),
    tokens: [],
    contracts: {} as ChainConfig['contracts'],
  };
}

const owners = ['0x01', '0x02', '0x03', '0x04', '0x05'].map(
  (n) => `0x${n.slice(2).padStart(40, '0')}` as const,
);

async function readTogether(config: ChainConfig, batch: boolean) {
  httpBodies.length = 0;
  const client = createChainClients([config], { fetchFn: rpcFetch.fetch, batch }).get(1)!;
  const balances = await Promise.all(owners.map((address) => client.getBalance({ address })));
  return { balances, httpBodies: [...httpBodies] };
}

describe('createChainClients', () => {
  it('sends five reads issued together as one JSON-RPC batch when the chain batches', async () => {
    const { balances, httpBodies: bodies } = await readTogether(chain(32), true);
    expect(balances).toEqual([42n, 42n, 42n, 42n, 42n]);
    expect(bodies).toHaveLength(1);
    expect((bodies[0] as RpcCall[]).map((c) => c.params[0])).toEqual(owners);
  });

  it('splits at rpcBatchSize', async () => {
    const { httpBodies: bodies } = await readTogether(chain(2), true);
    expect(bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([2, 2, 1]);
  });

  it('sends each read alone when the chain says 1 or nothing, and for the quote clients', async () => {
    for (const [config, batch] of [
      [chain(1), true],
      [chain(undefined), true],
      [chain(32), false],
    ] as const) {
      const { balances, httpBodies: bodies } = await readTogether(config, batch);
      expect(balances).toHaveLength(5);
      expect(bodies).toHaveLength(5);
      expect(bodies.every((b) => !Array.isArray(b))).toBe(true);
    }
  });

  it('fails only the request whose batch item is an error', async () => {
    httpBodies.length = 0;
    const client = createChainClients([chain(32)], { fetchFn: rpcFetch.fetch, batch: true }).get(1)!;
    const [ok, failed] = await Promise.allSettled([
      client.getBalance({ address: owners[0]! }),
      client.getBalance({ address: REVERTING }),
    ]);
    expect(httpBodies).toHaveLength(1);
    expect(ok).toEqual({ status: 'fulfilled', value: 42n });
    expect(failed.status).toBe('rejected');
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/header not found/);
  });
});
