/**
 * A fill that never happens (the solver's inventory on the destination is gone after the quote): the
 * order stays locked in the OriginSettler until fillDeadline + grace, then the engine calls
 * OriginSettler.refund and the owner gets the locked amount back on the origin chain (REFUNDED). The devnet's
 * settler has the real 10-minute grace, so the test warps every chain past it.
 */
import { type Address, encodeFunctionData, erc20Abi, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import { type RefundFixture, startRefundFixture } from './support.ts';

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

describe('settlement refund on the devnet', () => {
  it('an order never filled is refunded by the OriginSettler after fillDeadline + grace: REFUNDED on the origin', async () => {
    const accounts = f.net.devnet.accounts;
    const user = accounts.user.address;
    const solver = accounts.solver!.address;
    const usdcA = alpha.entry.tokens.USDC! as Address;
    const usdcB = beta.entry.tokens.USDC! as Address;
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: usdcA,
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: usdcB,
      destinationToAddress: recipient,
      originTokenAmount: parseUnits('50', 6),
      serviceFeeBps: 25n,
    });
    // After the quote the solver's inventory on beta leaves (to the deployer): the fill cannot happen.
    const inventory = await f.balance(beta, usdcB, solver);
    const drain = await beta.walletFor('solver').sendTransaction({
      to: usdcB,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [accounts.deployer!.address, inventory],
      }),
    });
    await beta.publicClient.waitForTransactionReceipt({ hash: drain });

    const settler = alpha.entry.contracts.originSettler as Address;
    const userA = await f.balance(alpha, usdcA, user);
    const settlerA = await f.balance(alpha, usdcA, settler);
    await f.withRefundEngine(async (engine) => {
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
      for (;;) {
        const fill = (await f.store.steps.list(intentId)).find((s) => s.step === 'fill');
        if (fill?.lastError?.includes('solver inventory is short')) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const locked = plan.order!.inputAmount;
      expect(await f.balance(alpha, usdcA, settler)).toBe(settlerA + locked);

      const grace = await alpha.publicClient.readContract({
        address: settler,
        abi: [
          {
            type: 'function',
            name: 'grace',
            stateMutability: 'view',
            inputs: [],
            outputs: [{ type: 'uint256' }],
          },
        ],
        functionName: 'grace',
      });
      await f.warpPast(alpha, plan.order!.fillDeadline + grace);
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('REFUNDED');

      // Origin: the locked amount is back with the owner; the fee paid for the origin execution stays paid.
      expect(await f.balance(alpha, usdcA, user)).toBe(userA - plan.origin.intent.depositAmount + locked);
      expect(await f.balance(alpha, usdcA, settler)).toBe(settlerA);
      expect(await f.balance(alpha, usdcA, plan.origin.address)).toBe(0n);
      // Destination: nothing delivered, nothing taken from anyone.
      expect(await f.balance(beta, usdcB, recipient)).toBe(0n);
      expect(await f.balance(beta, usdcB, plan.destination!.address)).toBe(0n);
      expect(await f.balance(beta, usdcB, solver)).toBe(0n);

      const rows = await f.rowsOf(intentId);
      await f.expectMinedRow(rows.origin);
      expect(rows.destination?.status).toBe('FAILED');
      // Whichever saw it first: the fill step giving up at the deadline, or the refund with the fill's last error.
      expect(rows.destination?.statusReason).toMatch(
        /^(fill failed: the fill deadline passed before the fill|not filled: no fill before the fill deadline \(last attempt: solver inventory is short on the destination chain\))$/,
      );
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.chainId).toBe(alpha.entry.chainId);
      expect(rows.refund?.toAddress).toBe(user.toLowerCase());
      expect(rows.refund?.tokenAmount).toBe(locked);
      expect(rows.refund?.statusReason).toMatch(
        /^the order was never filled \((fill failed: the fill deadline passed before the fill|no fill before the fill deadline \(last attempt: solver inventory is short on the destination chain\))\); the OriginSettler returned the locked [\d.]+ USDC to the owner on Switchyard Alpha after the grace period$/,
      );
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      expect(signed.map((s) => [s.purpose, s.status])).toEqual([
        ['origin-execute', 'mined'],
        ['order-refund', 'mined'],
      ]);
      const wait = await f.waitReceipt(intentId);
      expect(wait.done).toBe(true);
      expect(wait.receiptStates).toEqual(['SUCCEEDED', 'SUCCEEDED', 'FAILED', 'SUCCEEDED']);
    });
  }, 90_000);
});
