/**
 * Refunds on the origin chain (issue 5): an underpaid deposit, a deposit in the wrong token (with native
 * beside it) made without ExecuteIntent, late deposits after a refund and after success, and the owner's
 * own cancellation recorded through AbortIntent. Each test checks balances on both chains and the receipt.
 */
import { type Address, encodeFunctionData, parseEther, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import type { PlanRequest } from '../../../src/intents/plan/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import { type RefundFixture, startRefundFixture } from './support.ts';

const usdc = (n: string) => parseUnits(n, 6);
const dai = (n: string) => parseUnits(n, 18);

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
let relayer: Address;
let solver: Address;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
  relayer = f.net.devnet.accounts.relayer!.address;
  solver = f.net.devnet.accounts.solver!.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const usdcOf = (chain: TestDevnetChain) => chain.entry.tokens.USDC! as Address;
const daiOf = (chain: TestDevnetChain) => chain.entry.tokens.DAI! as Address;

function request(from: TestDevnetChain, to: TestDevnetChain, amountIn: bigint): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: from.entry.chainId,
    originTokenAddress: usdcOf(from),
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: usdcOf(to),
    destinationToAddress: freshAddress(),
    originTokenAmount: amountIn,
    serviceFeeBps: 25n,
  };
}

/** Polls `done` every 25 ms until it holds (the test's own timeout bounds the wait). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 25));
}

/** Until the intent's origin refund of this round (`origin-refund:N`) is mined. */
const refundMined = (intentId: string, purpose: string) =>
  until(async () =>
    (await f.store.signedTransactions.listForIntent(intentId)).some(
      (s) => s.purpose === purpose && s.status === 'mined',
    ),
  );

/** Until the deposit step is waiting on a deposit of `short`. */
const depositShort = (intentId: string, short: bigint) =>
  until(async () =>
    Boolean(
      (await f.store.steps.list(intentId))
        .find((s) => s.step === 'deposit')
        ?.lastError?.includes(`deposit ${short} of`),
    ),
  );

describe('origin refunds on the devnet', () => {
  it('an underpaid deposit is returned after the origin deadline: REFUNDED, nothing moved on the destination', async () => {
    await f.withRefundEngine(async (engine) => {
      const { intentId, plan } = await f.commit(request(alpha, beta, usdc('40')));
      const userA = await f.balance(alpha, usdcOf(alpha), user);
      const userB = await f.balance(beta, usdcOf(beta), user);
      const solverB = await f.balance(beta, usdcOf(beta), solver);
      const short = plan.origin.intent.depositAmount - 1n;
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan, short) });
      await depositShort(intentId, short);
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userA - short);

      await f.warpPast(alpha, plan.origin.intent.deadline);
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('REFUNDED');
      expect(done.finishedAt).not.toBeNull();
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userA);
      expect(await f.balance(alpha, usdcOf(alpha), plan.origin.address)).toBe(0n);
      expect(await f.balance(beta, usdcOf(beta), user)).toBe(userB);
      expect(await f.balance(beta, usdcOf(beta), solver)).toBe(solverB);

      const rows = await f.rowsOf(intentId);
      expect(rows.deposit?.status).toBe('FAILED');
      expect(rows.deposit?.statusReason).toMatch(/no (complete|full) deposit .*before the origin deadline/);
      expect(rows.origin?.status).toBe('FAILED');
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.fromAddress).toBe(relayer.toLowerCase());
      expect(rows.refund?.toAddress).toBe(user.toLowerCase());
      expect(rows.refund?.tokenAddress).toBe(usdcOf(alpha).toLowerCase());
      expect(rows.refund?.tokenAmount).toBe(short);
      expect(rows.refund?.statusReason).toMatch(
        /^returned 39\.\d+ USDC to the owner on Switchyard Alpha: the origin was not executed/,
      );
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      expect(signed.map((s) => [s.purpose, s.status])).toEqual([['origin-refund:1', 'mined']]);

      const wait = await f.waitReceipt(intentId);
      expect(wait.done).toBe(true);
      expect(wait.receiptStates).toEqual(['FAILED', 'FAILED', 'UNKNOWN', 'SUCCEEDED']);
      expect(wait.intentReceipt.refundTransaction?.statusReason).toBe(rows.refund?.statusReason);
    });
  }, 60_000);

  it('a wrong-token deposit (with native beside it) sent without ExecuteIntent is returned after the deadline, then a late deposit too', async () => {
    await f.withRefundEngine(async () => {
      const { intentId, plan } = await f.commit(request(alpha, beta, usdc('25')));
      const userDai = await f.balance(alpha, daiOf(alpha), user);
      const userUsdc = await f.balance(alpha, usdcOf(alpha), user);
      const userBetaUsdc = await f.balance(beta, usdcOf(beta), user);
      await f.transfer(alpha, daiOf(alpha), plan.origin.address, dai('25'));
      await f.transfer(alpha, zeroAddress, plan.origin.address, parseEther('0.01'));

      await f.warpPast(alpha, plan.origin.intent.deadline);
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('REFUNDED'); // COMMITTED → REFUNDED: it never started executing
      expect(await f.balance(alpha, daiOf(alpha), user)).toBe(userDai);
      expect(await f.balance(alpha, daiOf(alpha), plan.origin.address)).toBe(0n);
      expect(await f.balance(alpha, zeroAddress, plan.origin.address)).toBe(0n);
      expect(await f.balance(beta, usdcOf(beta), user)).toBe(userBetaUsdc);
      const rows = await f.rowsOf(intentId);
      expect(rows.deposit?.status).toBe('FAILED');
      expect(rows.deposit?.statusReason).toMatch(/25 DAI, 0\.01 ETH arrived, 25(\.\d+)? USDC required/);
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.tokenAddress).toBe(daiOf(alpha).toLowerCase());
      expect(rows.refund?.tokenAmount).toBe(dai('25'));
      expect(rows.refund?.statusReason).toMatch(/returned 25 DAI, 0\.01 ETH to the owner/);
      const firstRefund = rows.refund?.txnHash;

      // A late deposit after the refund: the engine still watches the address and returns it.
      await f.transfer(alpha, usdcOf(alpha), plan.origin.address, usdc('5'));
      await refundMined(intentId, 'origin-refund:2');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userUsdc);
      expect(await f.balance(alpha, usdcOf(alpha), plan.origin.address)).toBe(0n);
      const after = await f.store.intents.getForEngine(intentId);
      expect(after?.status).toBe('REFUNDED');
      expect((await f.rowsOf(intentId)).refund?.txnHash).toBe(firstRefund); // the receipt keeps the first refund
    });
  }, 60_000);

  it('a commit that never gets a deposit is FAILED once its deadline passes, and a late deposit still comes back', async () => {
    await f.withRefundEngine(async () => {
      const { intentId, plan } = await f.commit(request(alpha, beta, usdc('20')));
      const userUsdc = await f.balance(alpha, usdcOf(alpha), user);

      await f.warpPast(alpha, plan.origin.intent.deadline);
      const done = await f.waitForStatus(intentId, ['FAILED', 'REFUNDED', 'SUCCEEDED']);
      expect(done.status).toBe('FAILED'); // COMMITTED → FAILED: the deposit watcher no longer reads it
      const rows = await f.rowsOf(intentId);
      expect(rows.deposit?.status).toBe('FAILED');
      expect(rows.deposit?.statusReason).toMatch(
        /^no deposit arrived before the origin deadline \(20(\.\d+)? USDC required\)/,
      );
      expect(rows.refund).toBeUndefined();

      // The address is still watched: a deposit after the deadline goes back to the owner.
      await f.transfer(alpha, usdcOf(alpha), plan.origin.address, usdc('5'));
      await refundMined(intentId, 'origin-refund:1');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userUsdc);
      expect(await f.balance(alpha, usdcOf(alpha), plan.origin.address)).toBe(0n);
      expect((await f.store.intents.getForEngine(intentId))?.status).toBe('FAILED');
    });
  }, 60_000);

  it('a late deposit to an intent that already succeeded is returned to the owner', async () => {
    await f.withRefundEngine(async (engine) => {
      const recipient = freshAddress();
      const { intentId, plan } = await f.commit({
        ...request(alpha, alpha, usdc('20')),
        destinationToAddress: recipient,
      });
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
      expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
      const userUsdc = await f.balance(alpha, usdcOf(alpha), user);

      await f.transfer(alpha, usdcOf(alpha), plan.origin.address, usdc('7'));
      await until(async () => (await f.rowsOf(intentId)).refund?.status === 'SUCCEEDED');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userUsdc);
      expect(await f.balance(alpha, usdcOf(alpha), plan.origin.address)).toBe(0n);
      const rows = await f.rowsOf(intentId);
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.tokenAmount).toBe(usdc('7'));
      expect(rows.refund?.statusReason).toMatch(
        /^returned 7 USDC to the owner on Switchyard Alpha: a late deposit/,
      );
      expect((await f.store.intents.getForEngine(intentId))?.status).toBe('SUCCEEDED');
    });
  }, 60_000);

  it("the owner's own cancellation through AbortIntent: ABORTED, the engine sends nothing for it", async () => {
    await f.withRefundEngine(async (engine) => {
      const { intentId, plan } = await f.commit(request(alpha, beta, usdc('30')));
      const userA = await f.balance(alpha, usdcOf(alpha), user);
      const short = plan.origin.intent.depositAmount / 2n;
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan, short) });
      await depositShort(intentId, short);
      // The owner takes the deposit back before the deadline (only they may): the account emits Cancelled.
      const wallet = alpha.walletFor('user');
      const cancel = await wallet.sendTransaction({
        to: alpha.entry.contracts.intentFactory as Address,
        data: encodeFunctionData({
          abi: intentFactoryAbi,
          functionName: 'deployIfNeededAndRefund',
          args: [plan.origin.intent, [usdcOf(alpha)], true],
        }),
      });
      await alpha.publicClient.waitForTransactionReceipt({ hash: cancel });
      expect(
        await f.abortIntent({ intentId, chainId: alpha.entry.chainId, abortTransactionHash: cancel }),
      ).toBe('ABORTED');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userA);

      // The engine stops working on it: the waiting deposit step ends without sending anything.
      await f.waitForStep(intentId, 'deposit');
      expect((await f.store.intents.getForEngine(intentId))?.status).toBe('ABORTED');
      const rows = await f.rowsOf(intentId);
      expect(rows.refund?.txnHash).toBe(cancel.toLowerCase());
      expect(rows.refund?.tokenAmount).toBe(short);
      expect(rows.origin?.status).not.toBe('SUCCEEDED');
      const wait = await f.waitReceipt(intentId);
      expect(wait.done).toBe(true);
      expect(wait.intentReceipt.status).toBe('ABORTED');

      // A deposit after the cancellation is returned too (a cancelled account is refundable by anyone).
      await f.transfer(alpha, usdcOf(alpha), plan.origin.address, usdc('3'));
      await refundMined(intentId, 'origin-refund:1');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(userA);
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      expect(signed.map((s) => s.purpose)).toEqual(['origin-refund:1']); // never an origin execution
      expect((await f.store.intents.getForEngine(intentId))?.status).toBe('ABORTED');
    });
  }, 60_000);
});
