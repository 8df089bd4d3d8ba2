/**
 * RPC faults: the destination chain's RPC (a loopback proxy in front of anvil, support/rpc-proxy.ts)
 * answers 503 or answers slowly while an intent is in flight. A node that is down (connections refused)
 * is the real thing in chain-restart.test.ts: beta's anvil stopped and restarted from its state file. The intent does not
 * fail: its steps retry with backoff and it completes once the chain is back; meanwhile RuntimeStatus
 * (through the API) reports that chain unhealthy and the others healthy.
 */
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import { freePort } from '../harness/free-port.ts';
import { chainHealth } from './support/chain-health.ts';
import { submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { type ProxyMode, type RpcProxy, startRpcProxy } from './support/rpc-proxy.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, POLL_MS, useResilienceSuite } from './support/suite.ts';

/** Slow mode: every beta RPC answer is delayed this long (ms) — slower than any local node. */
const SLOW_MS = 300;

let proxy: RpcProxy;
const suite = useResilienceSuite({
  async service(net) {
    const beta = net.chains[1]!;
    proxy = await startRpcProxy(beta.entry.rpcUrl, await freePort());
    return { rpcUrls: { [beta.entry.chainId]: proxy.url } };
  },
  cleanup: async () => proxy?.close(),
});

async function waitForAttempts(intentId: string, atLeast: number): Promise<string> {
  for (;;) {
    const steps = await suite.svc.store.steps.list(intentId);
    const failing = steps.find(
      (s) => s.attempts >= atLeast && s.lastError && !s.lastError.startsWith('waiting'),
    );
    if (failing) return `${failing.step}: ${failing.lastError}`;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

describe('the destination chain RPC fails mid-flight', () => {
  const outages: [string, ProxyMode][] = [['answers HTTP 503', { kind: 'error' }]];
  for (const [name, mode] of outages) {
    it(
      `${name}: the intent waits, RuntimeStatus shows the chain unhealthy, then the intent succeeds`,
      async () => {
        const { svc, alpha, beta } = suite;
        await proxy.setMode(mode);
        const recipient = freshAddress();
        const request = alphaToBetaUsdc(suite, recipient, usdc('30'));
        // Quoting reads the destination chain: quote while it answers, break it before the deposit.
        await proxy.setMode({ kind: 'pass' });
        const { intent } = await svc.api().quoteIntent(request);
        await svc.api().commitIntent({ intent });
        await proxy.setMode(mode);
        const wallet = alpha.walletFor('user');
        const raw = intent.depositTransaction as unknown as { to: Address; data: `0x${string}` };
        const hash = await wallet.sendTransaction({ to: raw.to, data: raw.data });
        await alpha.publicClient.waitForTransactionReceipt({ hash });
        await svc.api().executeIntent({ intentId: intent.intentId, depositTransactionHash: hash });

        // The fill (on beta) fails with a retryable chain error, more than once; the intent is not failed.
        const error = await waitForAttempts(intent.intentId, 2);
        expect(error).toMatch(/ChainUnavailable|ChainRpc|fetch|HTTP|503|ECONNREFUSED/i);
        expect((await svc.store.intents.getForEngine(intent.intentId))?.status).toBe('EXECUTING');
        expect(await chainHealth(svc)).toEqual({
          [`chain:${alpha.entry.chainId}`]: true,
          [`chain:${beta.entry.chainId}`]: false,
          [`chain:${suite.gamma.entry.chainId}`]: true,
        });

        await proxy.setMode({ kind: 'pass' });
        const done = await waitForTerminal(svc, intent.intentId, INTENT_TIMEOUT_MS);
        expect(done.status).toBe('SUCCEEDED');
        await waitForStepDone(svc, intent.intentId, 'settle', INTENT_TIMEOUT_MS);
        expect(Object.values(await chainHealth(svc)).every(Boolean)).toBe(true);
        const received = await beta.publicClient.readContract({
          address: beta.entry.tokens.USDC as Address,
          abi: [
            {
              type: 'function',
              name: 'balanceOf',
              stateMutability: 'view',
              inputs: [{ type: 'address' }],
              outputs: [{ type: 'uint256' }],
            },
          ] as const,
          functionName: 'balanceOf',
          args: [recipient],
        });
        expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
      },
      INTENT_TIMEOUT_MS * 2,
    );
  }

  it(
    'answers slowly: the intent succeeds (no timeout turns slowness into a failure)',
    async () => {
      const { svc, queue } = suite;
      await proxy.setMode({ kind: 'slow', delayMs: SLOW_MS });
      const sent = await submitIntent(svc, alphaToBetaUsdc(suite, freshAddress(), usdc('20')), queue);
      expect((await waitForTerminal(svc, sent.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await proxy.setMode({ kind: 'pass' });
    },
    INTENT_TIMEOUT_MS,
  );
});
