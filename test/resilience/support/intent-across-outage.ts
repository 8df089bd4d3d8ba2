/**
 * One USDC alpha → beta intent through a real chain outage: the anvil of one chain goes down while one of
 * the intent's transactions waits in that chain's mempool (automine off, hold-in-mempool.ts), and comes back
 * on the same port. What a user and an operator see is checked meanwhile (the step retries with a retryable
 * chain error, the intent is not failed, RuntimeStatus reports that chain unhealthy and only that one) and
 * after (the intent SUCCEEDED and settled, the transaction lost with the mempool mined under its stored
 * hash, the recipient paid exactly the quoted amount once, every operator transaction sent once and every
 * token conserved: support/audit.ts, support/token-totals.ts).
 */
import type { Address, Hex } from 'viem';
import { expect } from 'vitest';
import { freshAddress, usdc } from '../../e2e/support/requests.ts';
import { balanceOf } from '../../harness/balances.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { auditSends } from './audit.ts';
import { chainHealth } from './chain-health.ts';
import { holdInMempool } from './hold-in-mempool.ts';
import { executeIntent, waitForStepDone, waitForTerminal } from './intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, type ResilienceSuite } from './suite.ts';
import { tokenTotals } from './token-totals.ts';
import { waitFor } from './wait-for.ts';

/**
 * Attempts (leases) of the failing step seen while the chain is down: the first failed when the chain
 * stopped, the second failed against the dead chain too, the third is leased: it keeps retrying.
 */
const ATTEMPTS_WHILE_DOWN = 3;

export interface OutageCase {
  /** The chain whose anvil goes down (alpha: origin and settle; beta: approve, fill, destination). */
  down: TestDevnetChain;
  /** The journaled purpose(s) waiting in that chain's mempool when it goes down (the first seen). */
  purpose: string | string[];
  /** Purposes held in the pool with it rather than mined past (hold-in-mempool.ts). */
  keep?: string[];
  /** The step that fails and retries while the chain is down. */
  step: 'origin' | 'fill' | 'destination' | 'settle';
}

export async function intentAcrossOutage(suite: ResilienceSuite, c: OutageCase): Promise<void> {
  const { svc, alpha, beta, net } = suite;
  const downId = c.down.entry.chainId;
  const recipient = freshAddress();
  const { intent } = await svc.api().quoteIntent(alphaToBetaUsdc(suite, recipient, usdc('30')));
  await svc.api().commitIntent({ intent });
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex };
  // From here the chain keeps what it is sent in its mempool until the test mines a block. Set before the
  // deposit: the deposit watcher may start the intent as soon as the deposit lands, before ExecuteIntent.
  await c.down.testClient.setAutomine(false);
  const depositHash = await suite.queue(alpha.entry.chainId, async () => {
    const hash = await alpha.walletFor('user').sendTransaction({ to: raw.to, data: raw.data });
    if (downId === alpha.entry.chainId) await alpha.testClient.mine({ blocks: 1 });
    await alpha.publicClient.waitForTransactionReceipt({ hash });
    return hash;
  });
  suite.created.push(
    recipient,
    intent.originIntentAddress as Address,
    intent.destinationIntentAddress as Address,
  );
  // After the deposit (the user's own transaction), before anything the service sends.
  const totalsBefore = await tokenTotals(svc, suite.created);

  await executeIntent(svc, intent.intentId, depositHash);
  const pending = await holdInMempool(svc, c.down, c.purpose, { keep: c.keep }).catch(async (error) => {
    const steps = await svc.store.steps.list(intent.intentId);
    const sent = await svc.store.signedTransactions.listForIntent(intent.intentId);
    throw new Error(
      `${(error as Error).message}; steps: ${JSON.stringify(steps.map((s) => [s.step, s.state, s.attempts, s.lastError]))}; journal: ${JSON.stringify(sent.map((t) => [t.chainId, t.purpose, t.nonce, t.status]))}`,
    );
  });

  await net.stopChain(downId);
  try {
    // The waiting step fails with a retryable chain error and is retried; the intent is not failed.
    const failing = await waitFor(`the ${c.step} step retried while chain ${downId} is down`, async () => {
      const steps = await svc.store.steps.list(intent.intentId);
      return steps.find(
        (s) =>
          s.step === c.step &&
          s.attempts >= ATTEMPTS_WHILE_DOWN &&
          s.lastError &&
          !s.lastError.startsWith('waiting'),
      );
    });
    expect(failing.lastError).toMatch(/ChainUnavailable|ECONNREFUSED/);
    expect(failing.state).not.toBe('failed');
    // Settlement is operator work after the user's SUCCEEDED; every earlier step holds the intent EXECUTING.
    expect((await svc.store.intents.getForEngine(intent.intentId))?.status).toBe(
      c.step === 'settle' ? 'SUCCEEDED' : 'EXECUTING',
    );
    expect(await chainHealth(svc)).toEqual(
      Object.fromEntries(net.chains.map((x) => [`chain:${x.entry.chainId}`, x.entry.chainId !== downId])),
    );
  } finally {
    await net.restartChain(downId);
  }

  const done = await waitForTerminal(svc, intent.intentId, INTENT_TIMEOUT_MS);
  expect(done.status).toBe('SUCCEEDED');
  await waitForStepDone(svc, intent.intentId, 'settle', INTENT_TIMEOUT_MS);
  expect(Object.values(await chainHealth(svc)).every(Boolean)).toBe(true);

  // The transaction lost with the mempool was re-broadcast as stored: same hash, mined, not replaced.
  // An early destination execution re-broadcast before its fill lands first and reverts, by design
  // (nothing moves); the normal execution follows it.
  const row = await svc.store.signedTransactions.findByHash(pending.hash);
  const receipt = await c.down.publicClient.getTransactionReceipt({ hash: pending.hash as Hex });
  const reverted = row?.purpose === 'destination-execute-early' && receipt.status === 'reverted';
  expect({ status: row?.status, receipt: receipt.status }).toEqual(
    reverted ? { status: 'failed', receipt: 'reverted' } : { status: 'mined', receipt: 'success' },
  );
  const received = await balanceOf(beta, beta.entry.tokens.USDC as Address, recipient);
  // Paid once, as quoted: a second fill or destination execution would pay the fresh recipient twice.
  expect(received).toBe(intent.quote.toAmount);
  suite.audited.push({
    intentId: intent.intentId,
    originChainId: alpha.entry.chainId,
    destinationChainId: beta.entry.chainId,
    originAddress: intent.originIntentAddress as Address,
    destinationAddress: intent.destinationIntentAddress as Address,
  });
  await auditSends(svc, suite.audited, suite.startBlocks);
  // Every token conserved over the holder set: nothing minted or lost by a lost or repeated transaction.
  expect(await tokenTotals(svc, suite.created)).toEqual(totalsBefore);
}
