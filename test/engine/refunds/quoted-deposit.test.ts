/**
 * Deposits to the address of a quote that was never committed: the engine watches those addresses (token
 * transfers by logs, native by balance), shows the deposit in the receipt with what will happen and when,
 * and returns it to the owner after the origin deadline with nobody acting. Balances are checked on-chain;
 * a quote committed after its deposit arrived runs as usual.
 */
import {
  type Address,
  createPublicClient,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainLookup, type EngineContext } from '../../../src/engine/context.ts';
import { createQuotedDepositWatch } from '../../../src/engine/quoted-deposit-watch.ts';
import type { PlanRequest } from '../../../src/intents/plan/types.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import { newIntent, randomAddress } from '../../../src/store/testing.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import { type RefundFixture, startRefundFixture } from './support.ts';

const usdc = (n: string) => parseUnits(n, 6);

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
let relayer: Address;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
  relayer = f.net.devnet.accounts.relayer!.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const usdcOf = (chain: TestDevnetChain) => chain.entry.tokens.USDC! as Address;

function request(originToken: Address, amount: bigint, recipient: Address = freshAddress()): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: originToken,
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: usdcOf(beta),
    destinationToAddress: recipient,
    originTokenAmount: amount,
    serviceFeeBps: 25n,
  };
}

/** Longest wait (ms) for the watch to record a deposit: it looks every 100 ms in these tests. */
const SEEN_WITHIN_MS = 20_000;

const depositRow = async (intentId: string) => (await f.rowsOf(intentId)).deposit;

/** Until the watch shows the deposit on the receipt's deposit row (PENDING, with its note). */
async function depositSeen(intentId: string): Promise<void> {
  const giveUpAt = Date.now() + SEEN_WITHIN_MS;
  while ((await depositRow(intentId))?.status !== 'PENDING') {
    if (Date.now() > giveUpAt) throw new Error(`no deposit recorded for ${intentId} in ${SEEN_WITHIN_MS} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a deposit to a quote that was never committed', () => {
  it('is shown in the receipt with what happens and when, and returned to the owner after the deadline with nobody acting', async () => {
    await f.withRefundEngine(async () => {
      const { intentId, plan } = await f.quote(request(usdcOf(alpha), usdc('30')));
      const o = plan.origin.intent;
      const before = await f.balance(alpha, usdcOf(alpha), user);
      const hash = await f.transfer(alpha, usdcOf(alpha), plan.origin.address, o.depositAmount);
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(before - o.depositAmount);

      // Seen by the watch: the receipt names the transfer and says what will happen, and when.
      await depositSeen(intentId);
      const receipt = await f.getReceipt(intentId);
      expect(receipt.status).toBe('QUOTED');
      const shown = receipt.depositTransaction;
      expect(shown.txnHash).toBe(hash.toLowerCase());
      expect(shown.fromAddress.toLowerCase()).toBe(user.toLowerCase());
      const deadline = new Date(Number(o.deadline) * 1000).toISOString();
      expect(shown.statusReason).toContain(
        'arrived, but the intent was never committed, so it is not executed',
      );
      expect(shown.statusReason).toContain(
        `returned to the owner ${o.owner} on Switchyard Alpha after the origin deadline ${deadline}`,
      );
      expect(shown.statusReason).toMatch(/CommitIntent before the quote expires at .* executes it/);
      // What keeps it out of the deletion of expired quotes: the engine has journaled work for it.
      expect((await f.store.steps.list(intentId)).map((s) => s.step)).toEqual(['origin-refund']);

      await f.warpPast(alpha, o.deadline);
      const done = await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED']);
      expect(done.status).toBe('REFUNDED');
      expect(await f.balance(alpha, usdcOf(alpha), user)).toBe(before);
      expect(await f.balance(alpha, usdcOf(alpha), plan.origin.address)).toBe(0n);

      const rows = await f.rowsOf(intentId);
      expect(rows.deposit?.status).toBe('FAILED');
      expect(rows.deposit?.statusReason).toMatch(/^the intent was never committed: the deposit was returned/);
      expect(rows.origin?.statusReason).toBe('not executed: the intent was never committed');
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.fromAddress).toBe(relayer.toLowerCase());
      expect(rows.refund?.toAddress).toBe(user.toLowerCase());
      expect(rows.refund?.tokenAmount).toBe(o.depositAmount);
      expect(rows.refund?.statusReason).toMatch(
        /^returned 30 USDC to the owner on Switchyard Alpha: the intent was never committed$/,
      );
      const wait = await f.waitReceipt(intentId);
      expect(wait.done).toBe(true);
      expect(wait.receiptStates).toEqual(['FAILED', 'FAILED', 'UNKNOWN', 'SUCCEEDED']);
      const signed = await f.store.signedTransactions.listForIntent(intentId);
      expect(signed.map((s) => s.purpose)).toEqual(['origin-refund:1']);
    });
  }, 60_000);

  it('in the native currency, found by its balance, is returned the same way', async () => {
    await f.withRefundEngine(async () => {
      const { intentId, plan } = await f.quote(request(zeroAddress, parseEther('0.02')));
      const o = plan.origin.intent;
      await f.transfer(alpha, zeroAddress, plan.origin.address, o.depositAmount);
      const before = await f.balance(alpha, zeroAddress, user);

      await depositSeen(intentId);
      const shown = (await f.getReceipt(intentId)).depositTransaction;
      expect(shown.statusReason).toMatch(/^0\.02 ETH arrived, but the intent was never committed/);
      expect(shown.txnHash).toBeUndefined(); // a native transfer leaves no log to name it by

      await f.warpPast(alpha, o.deadline);
      expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
      expect(await f.balance(alpha, zeroAddress, user)).toBe(before + o.depositAmount); // the relayer paid the gas
      expect(await f.balance(alpha, zeroAddress, plan.origin.address)).toBe(0n);
    });
  }, 60_000);

  it('committed while its quote is valid, runs as usual and the note is gone', async () => {
    await f.withRefundEngine(async () => {
      const recipient = freshAddress();
      const { intentId, plan } = await f.quote(request(usdcOf(alpha), usdc('20'), recipient));
      await f.deposit(plan);
      await depositSeen(intentId);
      await f.store.intents.updateStatus({ intentId, to: 'COMMITTED', committedAt: new Date() });

      expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
      expect(await f.balance(beta, usdcOf(beta), recipient)).toBe(plan.amounts.toAmount);
      const row = await depositRow(intentId);
      expect(row?.status).toBe('SUCCEEDED');
      expect(row?.statusReason).toBeNull();
    });
  }, 60_000);
});

describe('the cost of watching quotes', () => {
  it('does not grow with the number of quotes: one log read per chain a round, at most the batch of native balance reads', async () => {
    // Many quotes nobody pays: half in a token, half native.
    for (let i = 0; i < 40; i++) {
      await f.store.intents.insert(
        newIntent(f.projectId, {
          originChainId: alpha.entry.chainId,
          originIntentAddress: randomAddress(),
          originTokenAddress: i % 2 === 0 ? usdcOf(alpha) : zeroAddress,
        }),
      );
    }
    const calls = new Map<string, number>();
    const counted = (url: string) =>
      createPublicClient({
        transport: http(url, {
          async onFetchRequest(request) {
            const body = (await request.clone().json()) as { method: string } | { method: string }[];
            for (const { method } of [body].flat()) calls.set(method, (calls.get(method) ?? 0) + 1);
          },
        }),
      }) as PublicClient;
    const clients = new Map(f.net.chains.map((c) => [c.entry.chainId, counted(c.entry.rpcUrl)]));
    const ctx = {
      store: f.store,
      log: createSilentLogger(),
      chain: chainLookup(f.net.chainConfigs, clients),
      enqueue: async () => {},
    } as unknown as EngineContext;
    const nativeBatch = 5;
    const chainIds = f.net.chains.map((c) => c.entry.chainId);
    const watch = createQuotedDepositWatch(ctx, { chainIds, nativeBatch });
    for (let round = 0; round < 3; round++) {
      // New blocks on every chain, so each round has logs to read.
      for (const chain of f.net.chains) await chain.testClient.mine({ blocks: 2 });
      calls.clear();
      expect(await watch.round()).toBe(0);
      expect(calls.get('eth_blockNumber')).toBe(chainIds.length);
      expect(calls.get('eth_getLogs')).toBe(chainIds.length);
      expect(calls.get('eth_getBalance')).toBe(nativeBatch);
    }
  }, 60_000);
});
