/**
 * A fill whose destination account never executes before `D.deadline`: the solver delivered the output to
 * the destination intent address, but the relayer's destination execution did not happen (here: the engine
 * never leases the `destination` step, as if the relayer were down). After the deadline by chain time the
 * `destination-refund` step returns the output to the owner on the destination chain: REFUNDED, checked
 * on-chain and through GetIntentReceipt. Also: the relayer coming back after the deadline (its execution
 * now reverts `Expired`) changes nothing, and a normal intent never gets a destination refund, even after
 * the deadline.
 */
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDeployIfNeededAndRefund } from '../../../src/contracts/calldata.ts';
import type { Store } from '../../../src/store/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import { type RefundFixture, startRefundFixture } from './support.ts';

/** Lease (ms) of the engine that hides the destination step: a later engine takes that step over quickly. */
const SHORT_LEASE_MS = 1_000;

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const usdc = (chain: TestDevnetChain) => chain.entry.tokens.USDC! as Address;

/** The store as an engine whose relayer never runs `destination` sees it: that step is never handed out. */
function withoutDestinationStep(store: Store): Store {
  return {
    ...store,
    steps: {
      ...store.steps,
      // Every way a step reaches the runner: the loop's lease, an enqueue leased by its insert, and the
      // successors a completion leases. A destination step leased and never run is the dead relayer's.
      async leaseDue(input) {
        return (await store.steps.leaseDue(input)).filter((s) => s.step !== 'destination');
      },
      async enqueueAll(input) {
        return (await store.steps.enqueueAll(input)).filter((s) => s.step !== 'destination');
      },
      async complete(input) {
        const completed = await store.steps.complete(input);
        return { ...completed, leased: completed.leased.filter((s) => s.step !== 'destination') };
      },
    },
  };
}

async function commitUsdc() {
  const recipient = freshAddress();
  const committed = await f.commit({
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: usdc(alpha),
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: usdc(beta),
    destinationToAddress: recipient,
    originTokenAmount: parseUnits('40', 6),
    serviceFeeBps: 25n,
  });
  return { ...committed, recipient };
}

async function stepOf(intentId: string, name: string) {
  return (await f.store.steps.list(intentId)).find((s) => s.step === name);
}

/** Until the destination refund has looked at the chain and decided to wait for the deadline. */
async function untilRefundWaits(intentId: string): Promise<void> {
  for (;;) {
    const step = await stepOf(intentId, 'destination-refund');
    if (step?.lastError?.startsWith('waiting: the destination refund opens at the destination deadline'))
      return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('destination refund on the devnet', () => {
  it('a filled destination never executed: after D.deadline the output goes back to the owner on the destination (REFUNDED)', async () => {
    const { intentId, plan, recipient } = await commitUsdc();
    const d = plan.destination!;
    const output = plan.order!.outputAmount;
    expect(d.intent.refundRecipient.toLowerCase()).toBe(user.toLowerCase());
    await f.withRefundEngine(
      async (engine) => {
        await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
        await f.waitForStep(intentId, 'fill');
        await untilRefundWaits(intentId);

        // Before the deadline nothing moves: the output sits in the destination address, the intent runs.
        expect(await f.balance(beta, usdc(beta), d.address)).toBe(output);
        expect((await f.store.intents.getForEngine(intentId))?.status).toBe('EXECUTING');
        const userB = await f.balance(beta, usdc(beta), user);

        await f.warpPast(beta, d.intent.deadline);
        const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
        expect(done.status).toBe('REFUNDED');

        expect(await f.balance(beta, usdc(beta), user)).toBe(userB + output);
        expect(await f.balance(beta, usdc(beta), d.address)).toBe(0n);
        expect(await f.balance(beta, usdc(beta), recipient)).toBe(0n);

        const rows = await f.rowsOf(intentId);
        await f.expectMinedRow(rows.deposit);
        await f.expectMinedRow(rows.origin);
        expect(rows.destination?.status).toBe('FAILED');
        expect(rows.destination?.statusReason).toBe(
          'the destination was not executed before its deadline (the relayer did not execute it); the filled amount went back to the owner on Switchyard Beta',
        );
        await f.expectMinedRow(rows.refund);
        expect(rows.refund?.chainId).toBe(beta.entry.chainId);
        expect(rows.refund?.fromAddress).toBe(f.net.devnet.accounts.relayer!.address.toLowerCase());
        expect(rows.refund?.toAddress).toBe(user.toLowerCase());
        expect(rows.refund?.tokenAddress).toBe(usdc(beta).toLowerCase());
        expect(rows.refund?.tokenAmount).toBe(output);
        expect(rows.refund?.statusReason).toMatch(
          /^returned [\d.]+ USDC to the owner on Switchyard Beta: the destination was not executed before its deadline \(the relayer did not execute it\)$/,
        );
        const refundTx = await beta.publicClient.getTransaction({
          hash: rows.refund!.txnHash as `0x${string}`,
        });
        expect(refundTx.to?.toLowerCase()).toBe(beta.entry.contracts.intentFactory.toLowerCase());

        const signed = await f.store.signedTransactions.listForIntent(intentId);
        const purposes = signed.map((s) => [s.purpose, s.status]);
        expect(purposes).toContainEqual(['destination-refund:1', 'mined']);
        expect(purposes.some(([p]) => p === 'destination-execute')).toBe(false);
        expect(purposes.filter(([p]) => p?.startsWith('destination-refund'))).toHaveLength(1);

        const receipt = await f.getReceipt(intentId);
        expect(receipt.status).toBe('REFUNDED');
        expect(receipt.destinationTransaction?.status).toBe('FAILED');
        expect(receipt.refundTransaction?.status).toBe('SUCCEEDED');
        expect(receipt.refundTransaction?.chainId).toBe(beta.entry.chainId);
        expect(receipt.refundTransaction?.txnHash).toBe(rows.refund?.txnHash);
        expect(BigInt(receipt.refundTransaction!.tokenAmount)).toBe(output);
        const wait = await f.waitReceipt(intentId);
        expect(wait.done).toBe(true);
      },
      { store: withoutDestinationStep(f.store), options: { stepLeaseMs: SHORT_LEASE_MS } },
    );
  }, 90_000);

  it('the relayer comes back after D.deadline: its execution cannot run any more, the output is refunded once', async () => {
    const { intentId, plan, recipient } = await commitUsdc();
    const d = plan.destination!;
    const output = plan.order!.outputAmount;
    await f.withRefundEngine(
      async (down) => {
        await down.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
        await f.waitForStep(intentId, 'fill');
        await untilRefundWaits(intentId);
      },
      { store: withoutDestinationStep(f.store), options: { stepLeaseMs: SHORT_LEASE_MS } },
    );
    const userB = await f.balance(beta, usdc(beta), user);

    await f.warpPast(beta, d.intent.deadline);
    // A whole engine again: `destination` and `destination-refund` both run now, past the deadline.
    await f.withRefundEngine(async () => {
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('REFUNDED');
      // The destination step finishes too: failed for good (simulation reverts Expired), or skipped (done)
      // when the refund made the intent terminal first.
      for (;;) {
        const state = (await stepOf(intentId, 'destination'))?.state;
        if (state === 'done' || state === 'failed') break;
        await new Promise((r) => setTimeout(r, 25));
      }

      expect(await f.balance(beta, usdc(beta), user)).toBe(userB + output);
      expect(await f.balance(beta, usdc(beta), d.address)).toBe(0n);
      expect(await f.balance(beta, usdc(beta), recipient)).toBe(0n);
      const rows = await f.rowsOf(intentId);
      expect(rows.destination?.status).toBe('FAILED');
      // Whichever wrote it first: the destination step giving up (its simulation reverts Expired), or the refund.
      expect(rows.destination?.statusReason).toMatch(
        /Expired|^the destination was not executed before its deadline/,
      );
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.chainId).toBe(beta.entry.chainId);
      expect(rows.refund?.tokenAmount).toBe(output);
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      // The execution was refused in simulation: nothing signed for it, one refund.
      expect(signed.map((s) => s.purpose).filter((p) => p.startsWith('destination'))).toEqual([
        'destination-refund:1',
      ]);
      expect((await f.getReceipt(intentId)).refundTransaction?.txnHash).toBe(rows.refund?.txnHash);
    });
  }, 90_000);

  it('someone else refunded the destination account after D.deadline: their transaction is recorded, nothing sent', async () => {
    const { intentId, plan } = await commitUsdc();
    const d = plan.destination!;
    const output = plan.order!.outputAmount;
    const hidden = withoutDestinationStep(f.store);
    await f.withRefundEngine(
      async (down) => {
        await down.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
        await f.waitForStep(intentId, 'fill');
        await untilRefundWaits(intentId);
      },
      { store: hidden, options: { stepLeaseMs: SHORT_LEASE_MS } },
    );
    const userB = await f.balance(beta, usdc(beta), user);

    await f.warpPast(beta, d.intent.deadline);
    // Anyone may refund an expired account (to its committed refund recipient): here the deployer.
    const deployer = beta.walletFor('deployer');
    const theirs = await deployer.sendTransaction({
      to: beta.entry.contracts.intentFactory as Address,
      data: encodeDeployIfNeededAndRefund(d.intent, [usdc(beta)], false),
    });
    expect((await beta.publicClient.waitForTransactionReceipt({ hash: theirs })).status).toBe('success');
    expect(await f.balance(beta, usdc(beta), user)).toBe(userB + output);

    await f.withRefundEngine(
      async () => {
        const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
        expect(done.status).toBe('REFUNDED');
        const rows = await f.rowsOf(intentId);
        await f.expectMinedRow(rows.refund);
        expect(rows.refund?.txnHash).toBe(theirs.toLowerCase());
        expect(rows.refund?.fromAddress).toBe(deployer.account.address.toLowerCase());
        expect(rows.refund?.tokenAmount).toBe(output);
        expect(rows.destination?.status).toBe('FAILED');
        const signed = await f.store.signedTransactions.listForIntent(intentId);
        expect(signed.some((s) => s.purpose.startsWith('destination'))).toBe(false);
        expect(await f.balance(beta, usdc(beta), user)).toBe(userB + output);
      },
      { store: hidden },
    );
  }, 90_000);

  it('a normal intent never gets a destination refund, even after D.deadline', async () => {
    const { intentId, plan, recipient } = await commitUsdc();
    const d = plan.destination!;
    await f.withRefundEngine(async (engine) => {
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('SUCCEEDED');
      const delivered = await f.balance(beta, usdc(beta), recipient);
      expect(delivered).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
      const userB = await f.balance(beta, usdc(beta), user);

      await f.warpPast(beta, d.intent.deadline);
      // The runner skips the waiting refund step of a terminal intent at its next look.
      await f.waitForStep(intentId, 'destination-refund');
      expect(await f.balance(beta, usdc(beta), recipient)).toBe(delivered);
      expect(await f.balance(beta, usdc(beta), user)).toBe(userB);
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      expect(signed.some((s) => s.purpose.startsWith('destination-refund'))).toBe(false);
      expect((await f.rowsOf(intentId)).refund).toBeUndefined();
      expect((await f.store.intents.getForEngine(intentId))?.status).toBe('SUCCEEDED');
    });
  }, 90_000);
});
