/**
 * The crash test on PostgreSQL (DATABASE_URL, or an embedded server): `switchyard serve` killed with SIGKILL
 * right after the origin execution is broadcast and right after the fill is signed; after a restart the
 * intent succeeds and the audit finds each transaction once (support/audit.ts).
 */
import type { Address } from 'viem';
import { expect, it } from 'vitest';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import { auditSends } from './support/audit.ts';
import { submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

// Each test starts `serve` itself, with its crash hook.
const suite = useResilienceSuite({ service: () => ({ dialect: 'postgres' }), start: false });

for (const point of ['origin-execute:broadcast', 'solver-fill:signed']) {
  it(
    `Postgres, killed at ${point}: the intent succeeds, nothing is sent twice`,
    async () => {
      const { svc, alpha, beta, queue } = suite;
      const proc = await svc.start({ SWITCHYARD_DEBUG_CRASH_AT: point });
      const submitted = submitIntent(svc, alphaToBetaUsdc(suite, freshAddress(), usdc('33')), queue);
      expect(await proc.exited).toBe('SIGKILL');
      svc.forget();
      await svc.start();
      const { intentId, intent } = await submitted;
      expect((await waitForTerminal(svc, intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await waitForStepDone(svc, intentId, 'settle', INTENT_TIMEOUT_MS);
      await svc.stopProcess();
      suite.audited.push({
        intentId,
        originChainId: alpha.entry.chainId,
        destinationChainId: beta.entry.chainId,
        originAddress: intent.originIntentAddress as Address,
        destinationAddress: intent.destinationIntentAddress as Address,
      });
      await auditSends(svc, suite.audited, suite.startBlocks);
    },
    INTENT_TIMEOUT_MS,
  );
}
