/**
 * A hard chain crash that loses blocks: one chain's anvil is killed with SIGKILL (no state written on the
 * way out) and restarted from a state saved just before the first intent's first transaction on it
 * (test/harness/devnet.ts `saveChainState`, `killChain`, `restartChain({ fromState })`), so it comes back
 * *behind* what the engine saw: every transaction of that intent on that chain, seen mined (the intent
 * SUCCEEDED and settled), is gone, and with them nonces of the relayer or the solver there.
 *
 * alpha loses the origin execution and the settle of the first intent: the deposit is back in the origin
 * account, the order was never opened there, the relayer's alpha nonce is two behind the journal.
 *
 * The next intent's transactions on that chain take the journal's next nonces, above the lost ones. Before
 * the sender handled it, that intent stalled (its origin execution waited behind the nonce gap, retried as
 * TransactionPendingError, forever). Now a send waiting behind a gap sends the lost transactions of its key
 * again as stored (same hashes), so the first intent's effects happen on-chain again, once, and the next
 * intent is not blocked. The audit then finds, on the chain as it is now, every event and every operator
 * transaction once.
 *
 * Not tested here, on purpose: beta losing the fill (solver key) and the destination execution (relayer
 * key). Each key's lost transactions are re-sent when that key's next send waits behind the gap, so across
 * two keys the order is not guaranteed: a destination execution re-sent before its fill reverts
 * (InsufficientDeposit) and nothing re-runs the destination step (docs/engine.md, Chain outages).
 */
import { type Address, erc20Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { auditSends } from './support/audit.ts';
import { holdInMempool } from './support/hold-in-mempool.ts';
import {
  executeIntent,
  type SubmittedIntent,
  submitIntent,
  waitForStepDone,
  waitForTerminal,
} from './support/intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

const suite = useResilienceSuite();

async function received(recipient: Address): Promise<bigint> {
  const { beta } = suite;
  return beta.publicClient.readContract({
    address: beta.entry.tokens.USDC as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [recipient],
  });
}

async function nonces(chain: TestDevnetChain) {
  const { relayer, solver } = suite.net.devnet.accounts;
  return {
    relayer: await chain.publicClient.getTransactionCount({ address: relayer!.address }),
    solver: await chain.publicClient.getTransactionCount({ address: solver!.address }),
  };
}

/** Runs one intent, loses `lost`'s blocks from its first transaction of `pauseAt` on, runs a second one. */
async function intentsAcrossRollback(lost: TestDevnetChain, pauseAt: string): Promise<void> {
  const { svc, alpha, beta, net } = suite;
  const lostId = lost.entry.chainId;
  const submit = async (recipient: Address, execute: boolean) =>
    submitIntent(svc, alphaToBetaUsdc(suite, recipient, usdc('30')), suite.queue, { execute });

  // The first intent, paused at its first transaction on the chain that will lose blocks: save it there.
  const firstRecipient = freshAddress();
  const first = await submit(firstRecipient, false);
  await lost.testClient.setAutomine(false);
  await executeIntent(svc, first.intentId, first.depositHash);
  await holdInMempool(svc, lost, pauseAt);
  const saved = await net.saveChainState(lostId);
  const noncesAtSave = await nonces(lost);
  await lost.testClient.setAutomine(true);
  await lost.testClient.mine({ blocks: 1 });
  expect((await waitForTerminal(svc, first.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
  await waitForStepDone(svc, first.intentId, 'settle', INTENT_TIMEOUT_MS);
  expect(await received(firstRecipient)).toBe(first.intent.quote.toAmount);
  const journaled = (await svc.store.signedTransactions.listForIntent(first.intentId)).filter(
    (t) => t.chainId === lostId,
  );
  expect(journaled.map((t) => t.status)).toEqual(journaled.map(() => 'mined'));

  // The crash: the chain loses every block since the save, though the engine had seen them.
  await net.killChain(lostId);
  await net.restartChain(lostId, { fromState: saved });
  expect(await nonces(lost)).toEqual(noncesAtSave);
  for (const t of journaled) {
    await expect(lost.publicClient.getTransactionReceipt({ hash: t.hash as Hex })).rejects.toThrow();
  }

  // The next intent: its sends on the chain sit above the lost nonces.
  const secondRecipient = freshAddress();
  const second = await submit(secondRecipient, true);
  expect((await waitForTerminal(svc, second.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
  await waitForStepDone(svc, second.intentId, 'settle', INTENT_TIMEOUT_MS);

  // The lost transactions were sent again as stored: the same hashes are mined, and each recipient is
  // paid exactly once.
  for (const t of journaled) {
    const receipt = await lost.publicClient.getTransactionReceipt({ hash: t.hash as Hex });
    expect({ purpose: t.purpose, status: receipt.status }).toEqual({ purpose: t.purpose, status: 'success' });
  }
  expect(await received(firstRecipient)).toBe(first.intent.quote.toAmount);
  expect(await received(secondRecipient)).toBe(second.intent.quote.toAmount);
  for (const s of [first, second] as SubmittedIntent[]) {
    suite.audited.push({
      intentId: s.intentId,
      originChainId: alpha.entry.chainId,
      destinationChainId: beta.entry.chainId,
      originAddress: s.intent.originIntentAddress as Address,
      destinationAddress: s.intent.destinationIntentAddress as Address,
    });
  }
  await auditSends(svc, suite.audited, suite.startBlocks);
}

describe('a chain is SIGKILLed and comes back from an older state, behind what the engine saw', () => {
  it(
    'alpha loses the origin execution and the settle: sent again as stored, the next intent succeeds',
    async () => {
      await intentsAcrossRollback(suite.alpha, 'origin-execute');
    },
    INTENT_TIMEOUT_MS * 3,
  );
});
