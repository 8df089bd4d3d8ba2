/**
 * The engine end to end on a devnet and SQLite: intents are committed with a plan from buildExecutionPlan,
 * the devnet user deposits, and the engine (relayer, solver and attester keys of the devnet) does the rest.
 * Every test checks what moved on-chain and what the receipt and journal say.
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi, originSettlerAbi } from '../../src/contracts/abis.generated.ts';
import { computeOrderId } from '../../src/contracts/order-id.ts';
import { REFUND_RECHECK_MAX_MS } from '../../src/engine/refunds/constants.ts';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import type { ExecutionPlan, PlanRequest } from '../../src/intents/plan/types.ts';
import type { IntentTransactionRecord } from '../../src/store/types.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type EngineFixture, freshAddress, startEngineFixture } from './support/engine-fixture.ts';

const usdc = (n: string) => parseUnits(n, 6);

let f: EngineFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
let relayer: Address;
let solver: Address;
let feeCollector: Address;

beforeAll(async () => {
  f = await startEngineFixture('sqlite');
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  const accounts = f.net.devnet.accounts;
  user = accounts.user.address;
  relayer = accounts.relayer!.address;
  solver = accounts.solver!.address;
  feeCollector = accounts.feeCollector!.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

function usdcRequest(p: {
  from: TestDevnetChain;
  to: TestDevnetChain;
  amountIn: bigint;
  recipient: Address;
  extra?: Partial<PlanRequest>;
}): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: p.from.entry.chainId,
    originTokenAddress: p.from.entry.tokens.USDC!,
    destinationChainId: p.to.entry.chainId,
    destinationTokenAddress: p.to.entry.tokens.USDC!,
    destinationToAddress: p.recipient,
    originTokenAmount: p.amountIn,
    serviceFeeBps: 25n,
    ...p.extra,
  };
}

const balance = (chain: TestDevnetChain, token: Address, holder: Address) =>
  chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
/** The transaction that settled the plan's order on alpha (its OrderSettled event). */
async function settlementOf(plan: ExecutionPlan): Promise<string> {
  const orderId = computeOrderId(
    plan.order!,
    BigInt(alpha.entry.chainId),
    alpha.entry.contracts.originSettler as Address,
  );
  const [settled] = await alpha.publicClient.getContractEvents({
    address: alpha.entry.contracts.originSettler as Address,
    abi: originSettlerAbi,
    eventName: 'OrderSettled',
    args: { orderId },
    fromBlock: 0n,
  });
  if (!settled) throw new Error(`order ${orderId} was not settled`);
  return settled.transactionHash;
}

const nonceOf = (chain: TestDevnetChain, address: Address) =>
  chain.publicClient.getTransactionCount({ address, blockTag: 'latest' });

async function rowsOf(intentId: string): Promise<Record<string, IntentTransactionRecord>> {
  const rows = await f.store.transactions.list(intentId);
  return Object.fromEntries(rows.map((r) => [r.kind, r]));
}

/** The row's hash is a real transaction on its chain, mined at the row's mined_at. */
async function expectMinedRow(
  row: IntentTransactionRecord | undefined,
  status: 'SUCCEEDED' | 'FAILED' = 'SUCCEEDED',
) {
  expect(row?.status).toBe(status);
  expect(row?.txnHash).toMatch(/^0x[0-9a-f]{64}$/);
  const chain = f.chain(row!.chainId);
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: row!.txnHash as Hex });
  expect(receipt.status).toBe('success');
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  expect(row?.minedAt?.getTime()).toBe(Number(block.timestamp) * 1000);
  return receipt;
}

describe('engine on the devnet (SQLite)', () => {
  it('moves USDC from alpha to beta: recipient paid, fee collected, accounts empty, solver repaid', async () => {
    const engine = await f.startEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: alpha, to: beta, amountIn: usdc('100'), recipient }),
    );
    const usdcA = alpha.entry.tokens.USDC! as Address;
    const usdcB = beta.entry.tokens.USDC! as Address;
    const feeBefore = await balance(alpha, usdcA, feeCollector);
    const solverABefore = await balance(alpha, usdcA, solver);
    const solverBBefore = await balance(beta, usdcB, solver);

    const depositHash = await f.deposit(plan);
    await engine.requestExecution({ intentId, depositTransactionHash: depositHash });
    await engine.requestExecution({ intentId, depositTransactionHash: depositHash }); // a repeat is harmless
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();

    expect(await balance(beta, usdcB, recipient)).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
    expect(await balance(alpha, usdcA, feeCollector)).toBe(feeBefore + plan.fees.collectorFee);
    expect(await balance(alpha, usdcA, plan.origin.address)).toBe(0n);
    expect(await balance(beta, usdcB, plan.destination!.address)).toBe(0n);

    await f.waitForStep(intentId, 'settle');
    const delivered = plan.order!.outputAmount;
    expect(await balance(beta, usdcB, solver)).toBe(solverBBefore - delivered);
    const repaid = (await balance(alpha, usdcA, solver)) - solverABefore;
    expect(repaid).toBeGreaterThanOrEqual(delivered); // inputAmount ≥ outputAmount: the solver's spread

    const rows = await rowsOf(intentId);
    expect(rows.deposit?.txnHash).toBe(depositHash.toLowerCase());
    await expectMinedRow(rows.deposit);
    const originReceipt = await expectMinedRow(rows.origin);
    expect(originReceipt.from.toLowerCase()).toBe(relayer.toLowerCase());
    expect(originReceipt.to?.toLowerCase()).toBe(alpha.entry.contracts.intentFactory.toLowerCase());
    const destReceipt = await expectMinedRow(rows.destination);
    expect(destReceipt.to?.toLowerCase()).toBe(beta.entry.contracts.intentFactory.toLowerCase());
    expect(rows.refund).toBeUndefined();

    const steps = await f.store.steps.list(intentId);
    // The refund steps are journaled to look first at their deadlines (origin deadline, fillDeadline, D.deadline;
    // at most REFUND_RECHECK_MAX_MS ahead): nothing is refundable before, so none has run yet, and none runs
    // beside the steps the user waits for. What they do then: test/engine/refunds.
    const refundSteps = steps.filter((s) => s.step.endsWith('-refund'));
    expect(refundSteps.map((s) => [s.step, s.state, s.attempts])).toEqual([
      ['origin-refund', 'pending', 0],
      ['order-refund', 'pending', 0],
      ['destination-refund', 'pending', 0],
    ]);
    const deadlines = [
      plan.origin.intent.deadline,
      plan.order!.fillDeadline,
      plan.destination!.intent.deadline,
    ];
    refundSteps.forEach((s, i) => {
      expect(s.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
      expect(s.nextAttemptAt.getTime()).toBeLessThanOrEqual(
        Math.min(Number(deadlines[i]) * 1000, Date.now() + REFUND_RECHECK_MAX_MS),
      );
    });
    // The destination is journaled once the fill is in the pool, settlement once the fill is done.
    expect(steps.filter((s) => !s.step.endsWith('-refund')).map((s) => [s.step, s.state])).toEqual([
      ['deposit', 'done'],
      ['origin', 'done'],
      ['fill', 'done'],
      ['destination', 'done'],
      ['settle', 'done'],
    ]);
    const signed = await f.store.signedTransactions.listForIntent(intentId);
    // The destination execution may go out right behind the fill, still in the pool (the early purpose):
    // either way exactly one, mined (test/engine/destination-behind-fill.test.ts covers the early path).
    // Once the fill is done the destination execution and settlement run side by side (different chains,
    // and the settle step starts with the fill's completion), so they are signed in either order.
    const purposes = signed.map((s) => [s.purpose.replace(/-early$/, ''), s.status]);
    expect(purposes.slice(0, 2)).toEqual([
      ['origin-execute', 'mined'],
      ['solver-fill', 'mined'],
    ]);
    expect(purposes.slice(2)).toEqual([['destination-execute', 'mined']]);
    // Settlement is a relayer batch journaled for no single intent (src/engine/settlement-batcher.ts).
    const settleHash = await settlementOf(plan);
    const batch = await f.store.signedTransactions.findByHash(settleHash);
    expect([batch?.purpose, batch?.status, batch?.intentId ?? null, batch?.fromAddress]).toEqual([
      'settle-batch',
      'mined',
      null,
      relayer.toLowerCase(),
    ]);
    await engine.stop();
  }, 60_000);

  it('executes a same-chain transfer with the origin transaction alone', async () => {
    const engine = await f.startEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: alpha, to: alpha, amountIn: usdc('20'), recipient }),
    );
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');
    expect(await balance(alpha, alpha.entry.tokens.USDC! as Address, recipient)).toBeGreaterThanOrEqual(
      plan.amounts.toAmountMin,
    );
    const rows = await rowsOf(intentId);
    await expectMinedRow(rows.origin);
    expect(rows.destination?.txnHash).toBe(rows.origin?.txnHash);
    expect((await f.store.steps.list(intentId)).map((s) => s.step)).toEqual([
      'deposit',
      'origin-refund',
      'origin',
    ]);
    await engine.stop();
  }, 60_000);

  it('picks up a deposit made without ExecuteIntent', async () => {
    const engine = await f.startEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: beta, to: alpha, amountIn: usdc('30'), recipient }),
    );
    const depositHash = await f.deposit(plan);
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');
    expect(await balance(alpha, alpha.entry.tokens.USDC! as Address, recipient)).toBeGreaterThanOrEqual(
      plan.amounts.toAmountMin,
    );
    const rows = await rowsOf(intentId);
    expect(rows.deposit?.txnHash).toBe(depositHash.toLowerCase()); // found from the Transfer logs
    await expectMinedRow(rows.deposit);
    await engine.stop();
  }, 60_000);

  it('picks up such a deposit behind more abandoned commits than one watcher round reads', async () => {
    const engine = await f.startEngine({ engine: { depositScanBatch: 2 } });
    // Commits that never get a deposit stay COMMITTED, older than the next one in every scan.
    for (let i = 0; i < 3; i++) {
      await f.commit(usdcRequest({ from: beta, to: alpha, amountIn: usdc('20'), recipient: freshAddress() }));
    }
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: beta, to: alpha, amountIn: usdc('30'), recipient }),
    );
    await f.deposit(plan);
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('SUCCEEDED');
    expect(await balance(alpha, alpha.entry.tokens.USDC! as Address, recipient)).toBeGreaterThanOrEqual(
      plan.amounts.toAmountMin,
    );
    await engine.stop();
  }, 60_000);

  it('an underpaid deposit waits; topping it up lets the intent run', async () => {
    const engine = await f.startEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: alpha, to: beta, amountIn: usdc('40'), recipient }),
    );
    const short = plan.origin.intent.depositAmount - 1n;
    const first = await f.deposit(plan, short);
    await engine.requestExecution({ intentId, depositTransactionHash: first });
    // The journal shows the step waiting on the shortfall, and nothing was sent.
    for (;;) {
      const [step] = await f.store.steps.list(intentId);
      if (step?.lastError?.includes(`deposit ${short} of`)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await f.store.intents.getForEngine(intentId))?.status).toBe('EXECUTING');
    expect(await f.store.signedTransactions.listForIntent(intentId)).toEqual([]);
    await f.deposit(plan, 1n);
    expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
    await engine.stop();
  }, 60_000);

  it('a destination call that reverts refunds the owner on the destination: REFUNDED with the refund row', async () => {
    const engine = await f.startEngine();
    const gamma = f.net.chains[2]!;
    const vault = gamma.entry.contracts.usdcVault! as Address;
    // deposit() without an approval: the vault's transferFrom fails, so the destination calls revert.
    const data = encodeFunctionData({
      abi: accruingVaultAbi,
      functionName: 'deposit',
      args: [BigInt(AMOUNT_PLACEHOLDER), freshAddress()],
    });
    const { intentId, plan } = await f.commit(
      usdcRequest({
        from: alpha,
        to: gamma,
        amountIn: usdc('50'),
        recipient: vault,
        extra: { destinationCallData: data },
      }),
    );
    const usdcG = gamma.entry.tokens.USDC! as Address;
    const ownerBefore = await balance(gamma, usdcG, user);
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    const done = await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED']);
    expect(done.status).toBe('REFUNDED');
    expect(await balance(gamma, usdcG, user)).toBe(ownerBefore + plan.order!.outputAmount);
    expect(await balance(gamma, usdcG, plan.destination!.address)).toBe(0n);
    const rows = await rowsOf(intentId);
    expect(rows.destination?.status).toBe('FAILED');
    expect(rows.destination?.statusReason).toMatch(
      /^destination calls failed: CallFailed\(call \d+: ERC20InsufficientAllowance\(/,
    );
    await expectMinedRow(rows.refund);
    expect(rows.refund?.txnHash).toBe(rows.destination?.txnHash);
    await f.waitForStep(intentId, 'settle'); // the solver is still repaid: the fill stands
    await engine.stop();
  }, 60_000);

  it('a new engine on the same store finishes an intent stopped after its origin step, sending nothing twice', async () => {
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit(
      usdcRequest({ from: alpha, to: beta, amountIn: usdc('60'), recipient }),
    );
    const relayerNonces = [await nonceOf(alpha, relayer), await nonceOf(beta, relayer)];
    const solverNonce = await nonceOf(beta, solver);
    const first = await f.startEngine();
    await first.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    await f.waitForStep(intentId, 'origin');
    await first.stop();
    const afterFirst = await f.store.steps.list(intentId);
    expect(afterFirst.find((s) => s.step === 'origin')?.state).toBe('done');

    const second = await f.startEngine();
    expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
    await f.waitForStep(intentId, 'settle');
    await second.stop();
    // Exactly one origin execute and one settle on alpha, one destination execute on beta, one fill.
    expect((await nonceOf(alpha, relayer)) - relayerNonces[0]!).toBe(2);
    expect((await nonceOf(beta, relayer)) - relayerNonces[1]!).toBe(1);
    expect((await nonceOf(beta, solver)) - solverNonce).toBeLessThanOrEqual(2); // fill (+ the one-time approval)
    const signed = await f.store.signedTransactions.listForIntent(intentId);
    expect(signed.map((s) => s.purpose.replace(/-early$/, '')).sort()).toEqual([
      'destination-execute',
      'origin-execute',
      'solver-fill',
    ]);
    expect((await f.store.signedTransactions.findByHash(await settlementOf(plan)))?.purpose).toBe(
      'settle-batch',
    );
    expect(await balance(beta, beta.entry.tokens.USDC! as Address, recipient)).toBeGreaterThanOrEqual(
      plan.amounts.toAmountMin,
    );
    void (plan satisfies ExecutionPlan);
  }, 60_000);
});
