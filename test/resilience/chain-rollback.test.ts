/**
 * A hard chain crash that loses blocks: one chain's anvil is killed with SIGKILL (no state written on the
 * way out) and restarted from a state saved just before the first intent's first transaction on it
 * (test/harness/devnet.ts `saveChainState`, `killChain`, `restartChain({ fromState })`), so it comes back
 * *behind* what the engine saw: every transaction of that intent on that chain, seen mined (the intent
 * SUCCEEDED and settled), is gone, and with them nonces of the relayer or the solver there. The chain's
 * mempool is held from before the deposit (support/submit-held.ts), so the save is taken before anything
 * the service sends there is mined.
 *
 * 1. alpha loses the origin execution and the settle of the first intent (relayer key): the deposit is back
 *    in the origin account, the order was never opened there. The next intent's origin execution takes the
 *    journal's next nonce, above the lost ones, and waits behind the gap; that starts the chain's restore
 *    (src/chains/restore-lost-transactions.ts), which sends the lost ones again as stored (same hashes), so
 *    the first intent's effects happen on-chain again, once, and the next intent is not blocked.
 * 2. beta loses the solver's fill (and its approve, on the first fill there) and the relayer's destination
 *    execution: two keys, the execution spending what the fill delivered, and nothing is sent on beta after
 *    them (settlement is on alpha), so no later send notices the gap. The engine's chain watch sees beta
 *    unreachable and then back, and the restore sends them again in the order they were first mined: the
 *    recipient is paid on-chain again, once, and nothing new is signed.
 *
 * Each: the audit finds, on the chains as they are now, every event and every operator transaction once;
 * token totals over the audited holders at the head are what they were after the deposit (token-totals.ts:
 * anvil keeps no state of past blocks across a restart, so the start-block conservation cannot be read).
 *
 * Not tested here: a rollback that keeps the node up (a deep reorg; the chain watch's periodic check covers
 * it, every 10 min); a restore interrupted by a service crash (resumed at start, untested).
 */
import { type Address, erc20Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { CHAIN_WATCH_INTERVAL_MS } from '../../src/engine/constants.ts';
import type { SignedTransaction } from '../../src/store/types.ts';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { auditSends } from './support/audit.ts';
import { holdInMempool } from './support/hold-in-mempool.ts';
import { type SubmittedIntent, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { submitHeld } from './support/submit-held.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';
import { tokenTotals } from './support/token-totals.ts';
import { waitFor } from './support/wait-for.ts';

const suite = useResilienceSuite();

/** Beta stays down this long (ms): the engine's chain watch reads every chain's head every 2 s. */
const DOWN_FOR_MS = 3 * CHAIN_WATCH_INTERVAL_MS;

async function received(recipient: Address): Promise<bigint> {
  const { beta } = suite;
  return beta.publicClient.readContract({
    address: beta.entry.tokens.USDC as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [recipient],
  });
}

type Nonces = { relayer: number; solver: number };

async function nonces(chain: TestDevnetChain): Promise<Nonces> {
  const { relayer, solver } = suite.net.devnet.accounts;
  return {
    relayer: await chain.publicClient.getTransactionCount({ address: relayer!.address }),
    solver: await chain.publicClient.getTransactionCount({ address: solver!.address }),
  };
}

/** The relayer's and the solver's journal rows on `chain` at nonces from `from` on (fee replacements left out). */
async function journalSince(chain: TestDevnetChain, from: Nonces): Promise<SignedTransaction[]> {
  const { relayer, solver } = suite.net.devnet.accounts;
  const rows: SignedTransaction[] = [];
  for (const [address, fromNonce] of [
    [relayer!.address, from.relayer],
    [solver!.address, from.solver],
  ] as const) {
    rows.push(
      ...(await suite.svc.store.signedTransactions.listAtNonces({
        chainId: chain.entry.chainId,
        fromAddress: address,
        fromNonce,
        belowNonce: Number.MAX_SAFE_INTEGER,
      })),
    );
  }
  return rows.filter((r) => r.status !== 'replaced');
}

const receiptOf = (chain: TestDevnetChain, hash: string) =>
  chain.publicClient.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);

/** The first intent up to its save point: its mempool held from before the deposit, then paused at `pauseAt`. */
async function firstIntentSaved(lost: TestDevnetChain, pauseAt: string[]) {
  const { svc, net } = suite;
  const recipient = freshAddress();
  suite.created.push(recipient);
  const intent = await submitHeld(suite, lost, alphaToBetaUsdc(suite, recipient, usdc('30')));
  // After the deposit, before anything the service sends: the totals the run must end with.
  const totalsBefore = await tokenTotals(svc, suite.created);
  await holdInMempool(svc, lost, pauseAt);
  const saved = await net.saveChainState(lost.entry.chainId);
  const noncesAtSave = await nonces(lost);
  await lost.testClient.setAutomine(true);
  await lost.testClient.mine({ blocks: 1 });
  expect((await waitForTerminal(svc, intent.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
  await waitForStepDone(svc, intent.intentId, 'settle', INTENT_TIMEOUT_MS);
  expect(await received(recipient)).toBe(intent.intent.quote.toAmount);
  const journaled = await journalSince(lost, noncesAtSave);
  expect(journaled.map((t) => t.status).every((s) => s === 'mined' || s === 'failed')).toBe(true);
  return { intent, recipient, totalsBefore, saved, noncesAtSave, journaled };
}

/** The crash: the chain loses every block since the save, though the engine had seen them. */
async function rollBack(lost: TestDevnetChain, saved: string, noncesAtSave: Nonces, downForMs = 0) {
  await suite.net.killChain(lost.entry.chainId);
  if (downForMs > 0) await new Promise((r) => setTimeout(r, downForMs));
  await suite.net.restartChain(lost.entry.chainId, { fromState: saved });
  expect(await nonces(lost)).toEqual(noncesAtSave);
}

/** Each lost transaction mined again under its stored hash, with the outcome it first had, once. */
async function expectMinedAgain(lost: TestDevnetChain, journaled: SignedTransaction[]) {
  for (const t of journaled) {
    const receipt = await receiptOf(lost, t.hash);
    expect({ purpose: t.purpose, status: receipt?.status }).toEqual({
      purpose: t.purpose,
      status: t.status === 'mined' ? 'success' : 'reverted',
    });
  }
}

async function audit(intents: SubmittedIntent[]) {
  const { alpha, beta } = suite;
  for (const s of intents) {
    suite.audited.push({
      intentId: s.intentId,
      originChainId: alpha.entry.chainId,
      destinationChainId: beta.entry.chainId,
      originAddress: s.intent.originIntentAddress as Address,
      destinationAddress: s.intent.destinationIntentAddress as Address,
    });
  }
  await auditSends(suite.svc, suite.audited, suite.startBlocks);
}

describe('a chain is SIGKILLed and comes back from an older state, behind what the engine saw', () => {
  it(
    'alpha loses the origin execution and the settle: sent again as stored, the next intent succeeds',
    async () => {
      const { svc, alpha } = suite;
      const first = await firstIntentSaved(alpha, ['origin-execute']);
      await rollBack(alpha, first.saved, first.noncesAtSave);
      for (const t of first.journaled) expect(await receiptOf(alpha, t.hash)).toBeUndefined();

      // The next intent: its sends on alpha sit above the lost nonces.
      const secondRecipient = freshAddress();
      const second = await submitIntent(
        svc,
        alphaToBetaUsdc(suite, secondRecipient, usdc('30')),
        suite.queue,
      );
      suite.created.push(
        secondRecipient,
        second.intent.originIntentAddress as Address,
        second.intent.destinationIntentAddress as Address,
      );
      expect((await waitForTerminal(svc, second.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await waitForStepDone(svc, second.intentId, 'settle', INTENT_TIMEOUT_MS);

      // The lost transactions were sent again as stored, and each recipient is paid exactly once.
      await expectMinedAgain(alpha, first.journaled);
      expect(await received(first.recipient)).toBe(first.intent.intent.quote.toAmount);
      expect(await received(secondRecipient)).toBe(second.intent.quote.toAmount);
      await audit([first.intent, second]);
      // The second intent's addresses held nothing at the first count: the same totals.
      expect(await tokenTotals(svc, suite.created)).toEqual(first.totalsBefore);
    },
    INTENT_TIMEOUT_MS * 3,
  );

  it(
    "beta loses the fill and the destination execution, their keys' last there: restored in order when beta is back",
    async () => {
      const { svc, beta } = suite;
      const approve = `solver-approve:${beta.entry.tokens.USDC!.toLowerCase()}`;
      const first = await firstIntentSaved(beta, [approve, 'solver-fill']);
      const purposes = first.journaled.map((t) => t.purpose);
      expect(purposes).toContain('solver-fill');
      expect(purposes.some((p) => p.startsWith('destination-execute'))).toBe(true);

      // Down long enough for the engine to see it, back behind: the recipient is unpaid on-chain again.
      await rollBack(beta, first.saved, first.noncesAtSave, DOWN_FOR_MS);
      expect(await received(first.recipient)).toBe(0n);
      for (const t of first.journaled) expect(await receiptOf(beta, t.hash)).toBeUndefined();

      // Nothing is sent on beta any more: only the engine's own look at the chain can notice.
      await waitFor('the lost transactions mined again on beta', async () => {
        for (const t of first.journaled) if (!(await receiptOf(beta, t.hash))) return undefined;
        return true;
      });
      await expectMinedAgain(beta, first.journaled);
      const fill = first.journaled.find((t) => t.purpose === 'solver-fill')!;
      const fillBlock = (await receiptOf(beta, fill.hash))!.blockNumber;
      for (const t of first.journaled.filter((r) => r.purpose.startsWith('destination-execute'))) {
        expect((await receiptOf(beta, t.hash))!.blockNumber).toBeGreaterThan(fillBlock);
      }
      // Recorded mined again, under the same rows: nothing new signed on beta.
      const after = await waitFor('the restored rows recorded mined', async () => {
        const rows = await journalSince(beta, first.noncesAtSave);
        return rows.every((r) => r.status === 'mined' || r.status === 'failed') ? rows : undefined;
      });
      expect(after.map((r) => [r.hash, r.status])).toEqual(first.journaled.map((r) => [r.hash, r.status]));

      // Paid once on-chain, the destination account executed once, the solver repaid (settled on alpha).
      expect(await received(first.recipient)).toBe(first.intent.intent.quote.toAmount);
      await audit([first.intent]);
      expect(await tokenTotals(svc, suite.created)).toEqual(first.totalsBefore);
    },
    INTENT_TIMEOUT_MS * 3,
  );
});
