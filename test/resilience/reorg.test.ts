/**
 * Reorgs with confirmations = 3 on the origin chain (alpha, set in the serve config): a deposit only counts
 * once buried 3 deep, and a deposit that a reorg removes (evm_snapshot before it, evm_revert after it: its
 * block is dropped, then the chain grows past the depth without it) is never executed. A new deposit
 * afterwards is counted at depth and the intent completes.
 */
import { type Address, erc20Abi, type Hex } from 'viem';
import { expect, it } from 'vitest';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import { waitForTerminal } from './support/intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, POLL_MS, useResilienceSuite } from './support/suite.ts';

const ORIGIN_CONFIRMATIONS = 3;
/** Interval mining on alpha for the part that must reach depth 3 by itself (s). */
const BLOCK_TIME_S = 1;

const suite = useResilienceSuite({
  service: (net) => ({ confirmations: { [net.chains[0]!.entry.chainId]: ORIGIN_CONFIRMATIONS } }),
});

/** Waits until the deposit step has been looked at `more` more times after now (a re-read of the chain). */
async function depositChecks(intentId: string, more: number): Promise<string | null> {
  const { svc } = suite;
  const attempts = async () =>
    (await svc.store.steps.list(intentId)).find((s) => s.step === 'deposit')?.attempts ?? 0;
  const start = await attempts();
  for (;;) {
    const step = (await svc.store.steps.list(intentId)).find((s) => s.step === 'deposit');
    if ((step?.attempts ?? 0) >= start + more) return step?.lastError ?? null;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

it(
  'a deposit removed by a reorg before it is 3 deep is not executed; a new deposit is',
  async () => {
    const { svc, alpha } = suite;
    const usdcA = alpha.entry.tokens.USDC as Address;
    const request = alphaToBetaUsdc(suite, freshAddress(), usdc('45'));
    const api = svc.api();
    const { intent } = await api.quoteIntent(request);
    await api.commitIntent({ intent });
    const account = intent.originIntentAddress as Address;
    const raw = intent.depositTransaction as unknown as { to: Address; data: Hex };
    const wallet = alpha.walletFor('user');

    const snapshot = await alpha.testClient.snapshot();
    const dropped = await wallet.sendTransaction({ to: raw.to, data: raw.data });
    await alpha.publicClient.waitForTransactionReceipt({ hash: dropped });
    await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: dropped });
    // Seen but 1 deep: the engine waits (the deposit row is at most MINING).
    expect(await depositChecks(intent.intentId, 2)).toMatch(/^waiting/);
    expect(
      await alpha.publicClient.readContract({
        address: usdcA,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      }),
    ).toBe(intent.depositTransaction.amount);

    // The reorg: the deposit's block is dropped and the chain grows past the depth without it.
    await alpha.testClient.revert({ id: snapshot });
    await alpha.testClient.mine({ blocks: ORIGIN_CONFIRMATIONS + 2 });
    expect(
      await alpha.publicClient.getTransactionReceipt({ hash: dropped }).catch(() => undefined),
    ).toBeUndefined();
    expect(await depositChecks(intent.intentId, 2)).toMatch(/^waiting/);
    const signed = await svc.store.signedTransactions.listForIntent(intent.intentId);
    expect(signed).toEqual([]);
    expect((await svc.store.intents.getForEngine(intent.intentId))?.status).toBe('EXECUTING');

    // A real deposit now: counted once 3 deep (interval mining buries it), then the intent runs.
    await alpha.testClient.setIntervalMining({ interval: BLOCK_TIME_S });
    try {
      const kept = await wallet.sendTransaction({ to: raw.to, data: raw.data });
      await alpha.publicClient.waitForTransactionReceipt({ hash: kept });
      await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: kept });
      const done = await waitForTerminal(svc, intent.intentId, INTENT_TIMEOUT_MS);
      expect(done.status).toBe('SUCCEEDED');
      const origin = (await svc.store.signedTransactions.listForIntent(intent.intentId)).filter(
        (t) => t.purpose === 'origin-execute',
      );
      expect(origin).toHaveLength(1);
      const mined = await alpha.publicClient.getTransactionReceipt({ hash: origin[0]!.hash as Hex });
      const depositReceipt = await alpha.publicClient.getTransactionReceipt({ hash: kept });
      // The origin execution was sent only once the deposit was 3 deep.
      expect(mined.blockNumber - depositReceipt.blockNumber + 1n).toBeGreaterThanOrEqual(
        BigInt(ORIGIN_CONFIRMATIONS),
      );
    } finally {
      await alpha.testClient.setIntervalMining({ interval: 0 });
      await alpha.testClient.setAutomine(true);
    }
  },
  INTENT_TIMEOUT_MS * 2,
);
