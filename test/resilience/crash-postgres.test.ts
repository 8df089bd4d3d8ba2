/**
 * The crash test on PostgreSQL (DATABASE_URL, or an embedded server): `switchyard serve` killed with SIGKILL
 * right after the origin execution is broadcast and right after the fill is signed; after a restart the
 * intent succeeds and the audit finds each transaction once (support/audit.ts).
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type AuditedIntent, auditSends } from './support/audit.ts';
import { createDepositQueue, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { type ResilienceService, startResilienceService } from './support/resilience-service.ts';

const TIMEOUT_MS = 120_000;
let svc: ResilienceService;
const startBlocks = new Map<number, bigint>();
const audited: AuditedIntent[] = [];
const queue = createDepositQueue();

beforeAll(async () => {
  svc = await startResilienceService({ dialect: 'postgres' });
  for (const c of svc.net.chains) startBlocks.set(c.entry.chainId, await c.publicClient.getBlockNumber());
}, TIMEOUT_MS);
afterAll(async () => {
  await svc?.stop();
});

for (const point of ['origin-execute:broadcast', 'solver-fill:signed']) {
  it(
    `Postgres, killed at ${point}: the intent succeeds, nothing is sent twice`,
    async () => {
      const [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
      const proc = await svc.start({ SWITCHYARD_DEBUG_CRASH_AT: point });
      const request = quoteRequest({
        owner: svc.net.devnet.accounts.user.address,
        from: alpha,
        fromToken: 'USDC',
        to: beta,
        toToken: 'USDC',
        recipient: freshAddress(),
        amountIn: usdc('33'),
      });
      const submitted = submitIntent(svc, request, queue);
      expect(await proc.exited).toBe('SIGKILL');
      svc.forget();
      await svc.start();
      const { intentId, intent } = await submitted;
      expect((await waitForTerminal(svc, intentId, TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await waitForStepDone(svc, intentId, 'settle', TIMEOUT_MS);
      await svc.stopProcess();
      audited.push({
        intentId,
        originChainId: alpha.entry.chainId,
        destinationChainId: beta.entry.chainId,
        originAddress: intent.originIntentAddress as Address,
        destinationAddress: intent.destinationIntentAddress as Address,
      });
      await auditSends(svc, audited, startBlocks);
    },
    TIMEOUT_MS,
  );
}
