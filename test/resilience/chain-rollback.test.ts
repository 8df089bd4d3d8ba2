/**
 * A hard chain crash that loses blocks: alpha's anvil is killed with SIGKILL (no state written on the
 * way out) and restarted from a state saved before the intent's origin execution (test/harness/devnet.ts
 * `saveChainState`, `killChain`, `restartChain({ fromState })`), so it comes back *behind* what the engine
 * saw: the origin execution and the settle of the first intent, both seen mined, are gone, and with them
 * two of the relayer's nonces on alpha. The user was paid on beta (the fill and the destination execution
 * are on beta, untouched).
 */
import { type Address, erc20Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import { auditSends } from './support/audit.ts';
import { holdInMempool } from './support/hold-in-mempool.ts';
import { executeIntent, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

const suite = useResilienceSuite();

describe("alpha's anvil is SIGKILLed and comes back from an older state", () => {
  it(
    'the lost origin execution and settle are sent again as stored; the next intent is not blocked',
    async () => {
      const { svc, alpha, beta, net } = suite;
      const alphaId = alpha.entry.chainId;
      const relayer = net.devnet.accounts.relayer!.address;
      const request = (recipient: Address) =>
        quoteRequest({
          owner: net.devnet.accounts.user.address,
          from: alpha,
          fromToken: 'USDC',
          to: beta,
          toToken: 'USDC',
          recipient,
          amountIn: usdc('30'),
        });

      // The first intent, paused with its origin execution in alpha's mempool: save alpha's state there.
      const first = await submitIntent(svc, request(freshAddress()), suite.queue, { execute: false });
      await alpha.testClient.setAutomine(false);
      await executeIntent(svc, first.intentId, first.depositHash);
      const origin = await holdInMempool(svc, alpha, 'origin-execute');
      const saved = await net.saveChainState(alphaId);
      const nonceAtSave = await alpha.publicClient.getTransactionCount({ address: relayer });
      await alpha.testClient.setAutomine(true);
      await alpha.testClient.mine({ blocks: 1 });
      expect((await waitForTerminal(svc, first.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await waitForStepDone(svc, first.intentId, 'settle', INTENT_TIMEOUT_MS);
      const settle = (await svc.store.signedTransactions.listForIntent(first.intentId)).find(
        (t) => t.purpose === 'settle',
      )!;
      expect(settle.status).toBe('mined');

      // The crash: alpha loses every block since the save. The engine had seen both transactions mined.
      await net.killChain(alphaId);
      await net.restartChain(alphaId, { fromState: saved });
      expect(await alpha.publicClient.getTransactionCount({ address: relayer })).toBe(nonceAtSave);
      await expect(alpha.publicClient.getTransactionReceipt({ hash: origin.hash as Hex })).rejects.toThrow();

      // The next intent's origin execution takes the relayer's next nonce on alpha, above the lost ones.
      const recipient = freshAddress();
      const second = await submitIntent(svc, request(recipient), suite.queue);
      expect((await waitForTerminal(svc, second.intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
      await waitForStepDone(svc, second.intentId, 'settle', INTENT_TIMEOUT_MS);

      // The lost transactions were sent again as stored (same hashes), so the first intent's order is
      // opened and settled on alpha once, as the journal says.
      for (const hash of [origin.hash, settle.hash]) {
        const receipt = await alpha.publicClient.getTransactionReceipt({ hash: hash as Hex });
        expect(receipt.status).toBe('success');
      }
      expect(
        await beta.publicClient.readContract({
          address: beta.entry.tokens.USDC as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [recipient],
        }),
      ).toBe(second.intent.quote.toAmount);
      for (const s of [first, second]) {
        suite.audited.push({
          intentId: s.intentId,
          originChainId: alphaId,
          destinationChainId: beta.entry.chainId,
          originAddress: s.intent.originIntentAddress as Address,
          destinationAddress: s.intent.destinationIntentAddress as Address,
        });
      }
      await auditSends(svc, suite.audited, suite.startBlocks);
    },
    INTENT_TIMEOUT_MS * 3,
  );
});
