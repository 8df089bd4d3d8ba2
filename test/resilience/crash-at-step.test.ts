/**
 * Crash safety, one step at a time: `switchyard serve` runs as a child process and kills itself with
 * SIGKILL at a named point of a cross-chain intent (SWITCHYARD_DEBUG_CRASH_AT, src/chains/debug-crash-point.ts),
 * is restarted without the hook, and the intent must finish with nothing sent twice: one origin execution,
 * one fill, one destination execution, one settlement on-chain (events), every relayer/solver transaction
 * journaled at its nonce, no nonce skipped or reused for another call, and every token conserved.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type AuditedIntent, auditSends, conservation, expectConserved } from './support/audit.ts';
import { createDepositQueue, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { type ResilienceService, startResilienceService } from './support/resilience-service.ts';

/** One crash, a restart (1–3 s) and an intent (~3 s), with room for a loaded 2-core machine (ms). */
const PER_POINT_TIMEOUT_MS = 120_000;
const FINISH_TIMEOUT_MS = 90_000;

/** The points where the process dies, in the order an intent reaches them. */
const CRASH_POINTS = [
  'execute:accepted',
  'origin-execute:signed',
  'origin-execute:broadcast',
  'origin-execute:mined',
  'solver-fill:signed',
  'solver-fill:broadcast',
  'destination-execute:broadcast',
  'settle:signed',
  'settle:broadcast',
] as const;

let svc: ResilienceService;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
const startBlocks = new Map<number, bigint>();
const audited: AuditedIntent[] = [];
const created: Address[] = [];
const queue = createDepositQueue();

beforeAll(async () => {
  svc = await startResilienceService();
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  for (const c of svc.net.chains) startBlocks.set(c.entry.chainId, await c.publicClient.getBlockNumber());
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

describe('SIGKILL at each step of a cross-chain intent, then restart', () => {
  for (const point of CRASH_POINTS) {
    it(
      `killed at ${point}: the intent succeeds and nothing is sent twice`,
      async () => {
        const proc = await svc.start({ SWITCHYARD_DEBUG_CRASH_AT: point });
        const recipient = freshAddress();
        // USDC on alpha → DAI on beta: origin execution, fill, destination swap, settlement.
        const request = quoteRequest({
          owner: svc.net.devnet.accounts.user.address,
          from: alpha,
          fromToken: 'USDC',
          to: beta,
          toToken: point.startsWith('settle') ? 'USDC' : 'DAI',
          recipient,
          amountIn: usdc('40'),
        });
        const submitted = submitIntent(svc, request, queue);
        expect(await proc.exited).toBe('SIGKILL');
        svc.forget();
        await svc.start();
        const { intentId, intent } = await submitted;
        const done = await waitForTerminal(svc, intentId, FINISH_TIMEOUT_MS);
        expect(done.status).toBe('SUCCEEDED');
        await waitForStepDone(svc, intentId, 'settle', FINISH_TIMEOUT_MS);
        await svc.stopProcess();

        const received = await balanceOn(beta, request.destinationTokenAddress as Address, recipient);
        expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
        audited.push({
          intentId,
          originChainId: alpha.entry.chainId,
          destinationChainId: beta.entry.chainId,
          originAddress: intent.originIntentAddress as Address,
          destinationAddress: intent.destinationIntentAddress as Address,
        });
        created.push(
          recipient,
          intent.originIntentAddress as Address,
          intent.destinationIntentAddress as Address,
        );
        await auditSends(svc, audited, startBlocks);
      },
      PER_POINT_TIMEOUT_MS,
    );
  }

  it('every token on every chain is conserved over all the crashed runs', async () => {
    expect(audited.length).toBe(CRASH_POINTS.length);
    expectConserved(await conservation(svc, startBlocks, created));
  }, 120_000);
});

async function balanceOn(chain: TestDevnetChain, token: Address, holder: Address): Promise<bigint> {
  const { balanceOf } = await import('../e2e/support/e2e-fixture.ts');
  return balanceOf(chain, token, holder);
}
