/**
 * Uniswap V3 routes end to end through the official client on /rpc/Trails: a real devnet, the real engine, the
 * real API. A large WETH → USDC order on one chain is quoted through V3 (split with the V2 pair) and ends
 * SUCCEEDED with the owner's USDC up by at least `toAmountMin`; a cross-chain route paid in native ETH swaps
 * through V3 at both ends. The quote's `swapRoutes` breakdown reaches the client and GetIntent serves it back as stored.
 * support/run-intent.ts checks the receipt and the balances of every run.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAndWait } from '../../src/devnet/send-and-wait.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type E2eService, startE2eService } from './support/e2e-fixture.ts';
import { freshAddress, quoteRequest } from './support/requests.ts';
import { runIntent } from './support/run-intent.ts';

/** One intent on the devnet takes ~2 s; this leaves room on a loaded 2-core machine. */
const INTENT_TIMEOUT_MS = 60_000;
/** ~150,000 USD of WETH: half of what the 0.05 % pool holds near the price, so the order is split. */
const LARGE_WETH = parseEther('50');

/** The breakdown as JSON carries it (the client keeps fields it does not know as they came). */
interface WireSwapRoute {
  leg: string;
  chainId: number;
  amountIn: string;
  amountOut: string;
  parts: {
    provider: string;
    tokens: string[];
    pools: string[];
    fees: number[];
    amountOut: string;
    limit: string;
  }[];
  alternatives: { parts: { provider: string }[]; amountOut: string }[];
}

let svc: E2eService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta, gamma] = svc.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
  // The user's 100 ETH: 60 of it wrapped, for the WETH orders.
  await sendAndWait(
    { publicClient: alpha.publicClient, walletClient: alpha.walletFor('user') },
    {
      address: alpha.entry.tokens.WETH as Address,
      abi: parseAbi(['function deposit() payable']),
      functionName: 'deposit',
      value: parseEther('60'),
    },
  );
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

describe('Uniswap V3 through the official client', () => {
  it('lists every devnet chain for the UNISWAP_V3 route provider', async () => {
    const { chains } = await api.getChains({ routeProvider: 'UNISWAP_V3' });
    expect(chains.map((c) => c.id)).toEqual(svc.net.chainConfigs.map((c) => c.chainId));
  });

  it(
    "quotes a large WETH → USDC swap through UNISWAP_V3, runs it to SUCCEEDED, the owner's USDC up by at least toAmountMin",
    async () => {
      // The owner is the recipient: run-intent checks that their USDC grew by at least toAmountMin.
      const req = quoteRequest({
        owner: user,
        from: alpha,
        fromToken: 'WETH',
        to: alpha,
        toToken: 'USDC',
        recipient: user,
        amountIn: LARGE_WETH,
      });
      const { intent, received, receipt } = await runIntent(svc, api, req);
      expect(intent.quote.routeProviders).toContain('UNISWAP_V3');
      expect(receipt.status).toBe('SUCCEEDED');
      expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
      const routes = (intent.quote as unknown as { swapRoutes: WireSwapRoute[] }).swapRoutes;
      expect(routes).toHaveLength(1);
      const [route] = routes;
      expect(route!.leg).toBe('origin');
      expect(route!.parts.length).toBeGreaterThanOrEqual(2);
      expect(route!.parts.reduce((sum, p) => sum + BigInt(p.amountOut), 0n)).toBe(intent.quote.toAmount);
      expect(route!.parts.reduce((sum, p) => sum + BigInt(p.limit), 0n)).toBe(intent.quote.toAmountMin);
      for (const alternative of route!.alternatives) {
        expect(BigInt(route!.amountOut)).toBeGreaterThan(BigInt(alternative.amountOut));
      }
      // GetIntent serves the breakdown as it was quoted.
      const stored = await api.getIntent({ intentId: intent.intentId });
      expect((stored.intent.quote as unknown as { swapRoutes: WireSwapRoute[] }).swapRoutes).toEqual(routes);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'swaps through V3 at both ends of a cross-chain route: ETH on gamma → DAI on beta',
    async () => {
      const req = quoteRequest({
        owner: user,
        from: gamma,
        fromToken: 'ETH',
        to: beta,
        toToken: 'DAI',
        recipient: freshAddress(),
        amountIn: parseEther('5'),
      });
      const { intent, received } = await runIntent(svc, api, req);
      expect(intent.quote.routeProviders).toEqual(['WETH', 'UNISWAP_V3', 'SWITCHYARD', 'UNISWAP_V3']);
      const routes = (intent.quote as unknown as { swapRoutes: WireSwapRoute[] }).swapRoutes;
      expect(routes.map((r) => [r.leg, r.chainId])).toEqual([
        ['origin', gamma.entry.chainId],
        ['destination', beta.entry.chainId],
      ]);
      expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
    },
    INTENT_TIMEOUT_MS,
  );
});
