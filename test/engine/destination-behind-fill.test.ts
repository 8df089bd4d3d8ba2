/**
 * The destination execution sent right behind the fill (src/engine/steps/destination.ts): with blocks
 * mined by hand on the destination chain, both transactions wait in the pool together and land in one
 * block, fill first; and when the execution lands without the fill it reverts, moves nothing, and the
 * normal execution follows once the fill is in. With the chain's `destinationBehindFill` off, the execution
 * waits for the fill to be mined and lands in a later block.
 */
import { type Address, erc20Abi, type Hex, parseUnits } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRequest } from '../../src/intents/plan/types.ts';
import type { SignedTransaction } from '../../src/store/types.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import {
  approveSettlerForSolver,
  type EngineFixture,
  freshAddress,
  startEngineFixture,
} from './support/engine-fixture.ts';

/** How often the test looks at the journal while it waits for a transaction to reach the pool (ms). */
const POLL_MS = 25;
/** Longest wait for one journal state (ms): the engine needs a few hundred ms on a busy machine. */
const WAIT_MS = 20_000;
/** How long the switch-off case holds the fill in the pool before mining it (ms): the engine polls every 20. */
const HOLD_MS = 1_000;

let f: EngineFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  f = await startEngineFixture('sqlite');
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  await approveSettlerForSolver(beta);
}, 120_000);
afterAll(async () => {
  await f?.stop();
});
afterEach(async () => {
  await beta.testClient.setAutomine(true);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function request(recipient: Address, amount: bigint): PlanRequest {
  return {
    ownerAddress: f.net.devnet.accounts.user.address,
    originChainId: alpha.entry.chainId,
    originTokenAddress: alpha.entry.tokens.USDC!,
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: beta.entry.tokens.USDC!,
    destinationToAddress: recipient,
    originTokenAmount: amount,
    serviceFeeBps: 25n,
  };
}

async function journalRow(intentId: string, purpose: string, status: SignedTransaction['status']) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const rows = await f.store.signedTransactions.listForIntent(intentId);
    const found = rows.find((r) => r.purpose === purpose && r.status === status);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = rows.map((r) => `${r.purpose}:${r.status}`).join(', ');
      throw new Error(`no ${purpose} ${status} in the journal after ${WAIT_MS} ms (seen: ${seen})`);
    }
    await sleep(POLL_MS);
  }
}

const usdcOf = (holder: Address) =>
  beta.publicClient.readContract({
    address: beta.entry.tokens.USDC! as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });

/** An intent started with blocks mined by hand: its fill and its early execution both in the pool. */
async function startBehindFill(amount: string) {
  await beta.testClient.setAutomine(false);
  const engine = await f.startEngine();
  const recipient = freshAddress();
  const { intentId, plan } = await f.commit(request(recipient, parseUnits(amount, 6)));
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  const fill = await journalRow(intentId, 'solver-fill', 'broadcast');
  const early = await journalRow(intentId, 'destination-execute-early', 'broadcast');
  return { engine, recipient, intentId, plan, fill, early };
}

/**
 * The fill comes back (its stored bytes, as the sender re-broadcasts them; the sender may have done so
 * already, and the node then answers "already imported") and lands; the normal execution follows and pays.
 */
async function landFillThenNormalExecution(started: Awaited<ReturnType<typeof startBehindFill>>) {
  const { engine, recipient, intentId, plan, fill } = started;
  await beta.publicClient
    .request({ method: 'eth_sendRawTransaction', params: [fill.raw as Hex] })
    .catch(() => undefined);
  await beta.testClient.setAutomine(true);
  await beta.testClient.mine({ blocks: 1 });
  const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
  expect(done.status).toBe('SUCCEEDED');

  const normal = await journalRow(intentId, 'destination-execute', 'mined');
  const rows = await f.store.transactions.list(intentId);
  expect(rows.find((r) => r.kind === 'destination')?.txnHash).toBe(normal.hash);
  expect(await usdcOf(recipient)).toBe(plan.order!.outputAmount);
  expect(await usdcOf(plan.destination!.address)).toBe(0n);
  expect(rows.find((r) => r.kind === 'refund')).toBeUndefined();
  await engine.stop();
}

describe('destination execution behind the fill', () => {
  it('lands in the same block as the fill, after it, and pays the recipient', async () => {
    const { engine, recipient, intentId, plan, fill, early } = await startBehindFill('15');
    await beta.testClient.mine({ blocks: 1 });
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');

    const fillReceipt = await beta.publicClient.getTransactionReceipt({ hash: fill.hash as Hex });
    const execReceipt = await beta.publicClient.getTransactionReceipt({ hash: early.hash as Hex });
    expect(execReceipt.blockNumber).toBe(fillReceipt.blockNumber);
    expect(execReceipt.transactionIndex).toBeGreaterThan(fillReceipt.transactionIndex);
    expect(execReceipt.status).toBe('success');
    expect(await usdcOf(recipient)).toBe(plan.order!.outputAmount);
    expect(await usdcOf(plan.destination!.address)).toBe(0n);
    const rows = await f.store.transactions.list(intentId);
    expect(rows.find((r) => r.kind === 'destination')?.txnHash).toBe(early.hash);
    const purposes = (await f.store.signedTransactions.listForIntent(intentId)).map((r) => r.purpose);
    expect(purposes).not.toContain('destination-execute');
    await engine.stop();
  }, 60_000);

  it('an execution that lands without the fill reverts, and the normal one follows the fill', async () => {
    const started = await startBehindFill('25');
    const { plan, recipient, fill, early } = started;
    // The fill leaves the pool (a node restarted, an eviction): the execution is mined alone.
    await beta.testClient.dropTransaction({ hash: fill.hash as Hex });
    await beta.testClient.mine({ blocks: 1 });
    const lone = await beta.publicClient.getTransactionReceipt({ hash: early.hash as Hex });
    expect(lone.status).toBe('reverted');
    expect(await usdcOf(plan.destination!.address)).toBe(0n);
    expect(await usdcOf(recipient)).toBe(0n);

    await landFillThenNormalExecution(started);
  }, 60_000);

  it('an execution whose nonce another send took is not signed again before the fill lands', async () => {
    const started = await startBehindFill('45');
    const { intentId, fill, early } = started;
    // Both leave the pool, and the relayer's key, used outside the service, takes the execution's nonce.
    await beta.testClient.dropTransaction({ hash: fill.hash as Hex });
    await beta.testClient.dropTransaction({ hash: early.hash as Hex });
    const relayer = beta.walletFor('relayer');
    const outside = await relayer.sendTransaction({
      account: relayer.account!,
      chain: relayer.chain,
      to: relayer.account!.address,
      value: 0n,
      nonce: early.nonce,
    });
    await beta.testClient.mine({ blocks: 1 });
    expect((await beta.publicClient.getTransactionReceipt({ hash: outside })).status).toBe('success');
    // The sender gives the execution up once its nonce is seen taken; the step must then wait for the
    // fill, not sign a simulated execution against an account the fill has not funded.
    await journalRow(intentId, 'destination-execute-early', 'replaced');
    await sleep(HOLD_MS);
    expect((await f.store.intents.getForEngine(intentId))?.status).toBe('EXECUTING');
    const journal = await f.store.signedTransactions.listForIntent(intentId);
    expect(journal.filter((r) => r.purpose === 'destination-execute-early').map((r) => r.status)).toEqual([
      'replaced',
    ]);

    await landFillThenNormalExecution(started);
  }, 60_000);

  it('with the switch off, waits for the fill to be mined and lands in a later block', async () => {
    await beta.testClient.setAutomine(false);
    const chains = f.net.chainConfigs.map((c) =>
      c.chainId === beta.entry.chainId ? { ...c, destinationBehindFill: false } : c,
    );
    const engine = await f.startEngine({ chains });
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(request(recipient, parseUnits('35', 6)));
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });

    const fill = await journalRow(intentId, 'solver-fill', 'broadcast');
    // Time for an early execution to show up, were one sent (the switch-on case sends it within ms).
    await sleep(HOLD_MS);
    const held = await f.store.signedTransactions.listForIntent(intentId);
    expect(held.filter((r) => r.purpose.startsWith('destination-'))).toEqual([]);
    await beta.testClient.mine({ blocks: 1 });
    const execution = await journalRow(intentId, 'destination-execute', 'broadcast');
    await beta.testClient.mine({ blocks: 1 });
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');

    const fillReceipt = await beta.publicClient.getTransactionReceipt({ hash: fill.hash as Hex });
    const execReceipt = await beta.publicClient.getTransactionReceipt({ hash: execution.hash as Hex });
    expect(fillReceipt.status).toBe('success');
    expect(execReceipt.status).toBe('success');
    expect(execReceipt.blockNumber).toBeGreaterThan(fillReceipt.blockNumber);
    const journal = await f.store.signedTransactions.listForIntent(intentId);
    expect(journal.map((r) => r.purpose)).not.toContain('destination-execute-early');
    expect(journal.filter((r) => r.status === 'failed')).toEqual([]);
    expect(await usdcOf(recipient)).toBe(plan.order!.outputAmount);
    expect(await usdcOf(plan.destination!.address)).toBe(0n);
    const rows = await f.store.transactions.list(intentId);
    expect(rows.find((r) => r.kind === 'destination')?.txnHash).toBe(execution.hash);
    await engine.stop();
  }, 60_000);
});
