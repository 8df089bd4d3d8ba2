/** A small hand-written two-chain configuration and a server on a real port for API tests. */
import { type ApiServer, type ApiServerOptions, createApiServer } from '../../src/api/server.ts';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';

const addr = (digit: string) => `0x${digit.repeat(40)}` as `0x${string}`;

export const USDC_A = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as const;
export const WETH_B = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' as const;

const contracts = {
  intentFactory: addr('1'),
  intentAccountImplementation: addr('2'),
  originSettler: addr('3'),
  destinationSettler: addr('4'),
  fillVerifier: addr('5'),
  uniswapV2Router: addr('6'),
  weth: addr('7'),
};

export const CHAINS: ChainConfig[] = [
  {
    chainId: 31337,
    name: 'Devnet A',
    rpcUrls: ['http://127.0.0.1:1'],
    explorerUrl: 'https://explorer.a.example',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: 1,
    tokens: [
      { symbol: 'DAI', name: 'Dai Stablecoin', address: addr('8'), decimals: 18 },
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: USDC_A,
        decimals: 6,
        featured: true,
        isUsdReference: true,
      },
    ],
    contracts,
  },
  {
    chainId: 31338,
    name: 'Devnet B',
    rpcUrls: ['http://127.0.0.1:1'],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: 1,
    tokens: [{ symbol: 'WETH', name: 'Wrapped Ether', address: WETH_B, decimals: 18 }],
    contracts: { ...contracts, weth: undefined },
  },
];

export const KEY = 'sy_test_key_project_1';
export const OTHER_KEY = 'sy_test_key_project_2';

export async function startTestServer(
  overrides: Partial<ApiServerOptions> = {},
): Promise<{ server: ApiServer; url: string }> {
  const server = await createApiServer({
    chains: CHAINS,
    log: createSilentLogger(),
    resolveAccessKey: (key) =>
      key === KEY ? { projectId: 1 } : key === OTHER_KEY ? { projectId: 2 } : undefined,
    prices: {
      getPriceUsd: (_chainId, token) => (token.toLowerCase() === USDC_A.toLowerCase() ? 1 : undefined),
    },
    rateLimit: false,
    ...overrides,
  });
  const url = await server.listen(0, '127.0.0.1');
  return { server, url };
}

export async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    // biome-ignore lint/suspicious/noExplicitAny: test helper returns arbitrary response JSON
    json: JSON.parse(text) as { code?: number; msg?: string; [key: string]: any },
  };
}
