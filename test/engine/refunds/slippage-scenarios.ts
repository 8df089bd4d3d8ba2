/**
 * The two slippage refunds, shared by the test that moves a Uniswap V2 pair (slippage.test.ts) and the one
 * that moves a V3 pool (test/routing/slippage-refund.test.ts): after the quote another account's trade moves
 * the price a swap goes through beyond the slippage tolerance, then the owner deposits and the engine
 * executes. On the origin the origin transaction fails and the deposit returns after the deadline; on the
 * destination the destination account refunds the bridged token in the same transaction.
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256, parseUnits } from 'viem';
import { expect } from 'vitest';
import { mintableTokenAbi } from '../../../src/devnet/abis.ts';
import { withGasMargin } from '../../../src/devnet/send-and-wait.ts';
import type { ExecutionPlan, PlanRequest } from '../../../src/intents/plan/types.ts';
import type { IntentTransactionRecord } from '../../../src/store/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import type { RefundFixture } from './support.ts';

/** A price move's trade is done this long (s) before its deadline. */
const TRADE_DEADLINE_S = 600n;

export type Stable = 'USDC' | 'DAI';

export const stableToken = (chain: TestDevnetChain, symbol: Stable) => chain.entry.tokens[symbol]! as Address;

/** What the price-moving trade sends to the router, given the two tokens, the amount sold and its seller. */
export type TradeCall = (trade: {
  from: Address;
  to: Address;
  amount: bigint;
  me: Address;
  deadline: bigint;
}) => Hex;

/**
 * Another account (the deployer) mints `wholeTokens` of `sell`, approves `router` and sends it `call`: a
 * sale of `sell` for the other stable into the chain's pool.
 */
export async function sellStable(
  chain: TestDevnetChain,
  sell: Stable,
  wholeTokens: string,
  router: Address,
  call: TradeCall,
): Promise<void> {
  const wallet = chain.walletFor('deployer');
  const from = stableToken(chain, sell);
  const to = stableToken(chain, sell === 'USDC' ? 'DAI' : 'USDC');
  const amount = parseUnits(wholeTokens, sell === 'USDC' ? 6 : 18);
  const me = wallet.account.address;
  const send = async (target: Address, data: Hex) => {
    // A V2 pair writes its price accumulators (a V3 pool its oracle) only in a later second than its last
    // update, so a swap estimated in that second (the devnet's setup syncs each pair just before the first
    // test) and mined in the next runs out of gas at the bare estimate: the trade is sent with the devnet's
    // margin (docs/devnet.md, "Gas estimates need a margin").
    const gas = withGasMargin(await chain.publicClient.estimateGas({ account: me, to: target, data }));
    const hash = await wallet.sendTransaction({ to: target, data, gas });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') {
      // Why it reverted: the same call with its gas limit replayed on the state and at the time it ran on
      // (an out-of-gas inside the pool leaves the router a 64th of the gas, so gasUsed stays under the limit).
      const tx = await chain.publicClient.getTransaction({ hash });
      const mined = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      const replay = await chain.publicClient
        .call({
          account: me,
          to: target,
          data,
          gas: tx.gas,
          blockNumber: receipt.blockNumber - 1n,
          blockOverrides: { time: mined.timestamp },
        })
        .then(
          () => 'the replay succeeds',
          (error: { shortMessage?: string }) => error.shortMessage,
        );
      expect.fail(
        `the price-moving trade's ${hash} reverted: gas ${receipt.gasUsed} of ${tx.gas}; ${replay}`,
      );
    }
  };
  await send(from, encodeFunctionData({ abi: mintableTokenAbi, functionName: 'mint', args: [me, amount] }));
  await send(
    from,
    encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
  );
  const deadline = (await chain.publicClient.getBlock()).timestamp + TRADE_DEADLINE_S;
  await send(router, call({ from, to, amount, me, deadline }));
}

export interface SlippageCase {
  /** The origin chain (the deposit) and the destination chain. */
  alpha: TestDevnetChain;
  beta: TestDevnetChain;
  /** What the owner asks for beyond the chains, tokens, owner, recipient and fee. */
  request: Pick<PlanRequest, 'originTokenAmount'> & Partial<PlanRequest>;
  /** Checks on the committed plan, before the price moves. */
  checkPlan?(plan: ExecutionPlan): void;
  /** Moves the price of the swap the case is about. */
  movePrice(): Promise<void>;
}

export interface SlippageOutcome {
  intentId: string;
  plan: ExecutionPlan;
  rows: Record<string, IntentTransactionRecord>;
}

/**
 * DAI on alpha to USDC on beta, the origin swap's price moved: origin FAILED with `failure`, nothing else
 * runs, the deposit returned after the deadline with a refund row whose reason matches `refundReason`.
 * `whileExecuting` runs once the origin failed, before the warp.
 */
export async function expectOriginSlippageRefund(
  f: RefundFixture,
  c: SlippageCase & {
    failure: RegExp;
    refundReason: RegExp;
    whileExecuting?(intentId: string): Promise<void>;
  },
): Promise<SlippageOutcome> {
  const { alpha, beta } = c;
  const user = f.net.devnet.accounts.user.address;
  const feeCollector = f.net.devnet.accounts.feeCollector!.address;
  const dai = stableToken(alpha, 'DAI');
  return f.withRefundEngine(async (engine) => {
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: dai,
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: stableToken(beta, 'USDC'),
      destinationToAddress: recipient,
      serviceFeeBps: 25n,
      ...c.request,
    });
    c.checkPlan?.(plan);
    await c.movePrice(); // DAI now buys less USDC than quoted
    const userDai = await f.balance(alpha, dai, user);
    const feeBefore = await f.balance(alpha, dai, feeCollector);
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    await f.waitForStep(intentId, 'origin', 'failed');
    const failed = await f.rowsOf(intentId);
    expect(failed.origin?.status).toBe('FAILED');
    expect(failed.origin?.statusReason).toMatch(c.failure);
    await c.whileExecuting?.(intentId);

    await f.warpPast(alpha, plan.origin.intent.deadline);
    expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
    expect(await f.balance(alpha, dai, user)).toBe(userDai);
    expect(await f.balance(alpha, dai, feeCollector)).toBe(feeBefore); // no fee: nothing ran
    expect(await f.balance(alpha, dai, plan.origin.address)).toBe(0n);
    expect(await f.balance(beta, stableToken(beta, 'USDC'), recipient)).toBe(0n);
    const rows = await f.rowsOf(intentId);
    await f.expectMinedRow(rows.refund);
    expect(rows.refund?.tokenAmount).toBe(plan.origin.intent.depositAmount);
    expect(rows.refund?.statusReason).toMatch(c.refundReason);
    return { intentId, plan, rows };
  });
}

/**
 * USDC on alpha to DAI on beta, the destination swap's price moved: REFUNDED, the owner paid the bridged
 * USDC on beta by the destination transaction itself, whose reason matches `destinationReason`.
 */
export async function expectDestinationSlippageRefund(
  f: RefundFixture,
  c: SlippageCase & { destinationReason: RegExp },
): Promise<SlippageOutcome> {
  const { alpha, beta } = c;
  const user = f.net.devnet.accounts.user.address;
  return f.withRefundEngine(async (engine) => {
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: stableToken(alpha, 'USDC'),
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: stableToken(beta, 'DAI'),
      destinationToAddress: recipient,
      serviceFeeBps: 25n,
      ...c.request,
    });
    c.checkPlan?.(plan);
    await c.movePrice(); // USDC now buys less DAI than quoted
    const userA = await f.balance(alpha, stableToken(alpha, 'USDC'), user);
    const userB = await f.balance(beta, stableToken(beta, 'USDC'), user);
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
    expect(await f.balance(alpha, stableToken(alpha, 'USDC'), user)).toBe(
      userA - plan.origin.intent.depositAmount,
    );
    expect(await f.balance(beta, stableToken(beta, 'USDC'), user)).toBe(userB + plan.order!.outputAmount);
    expect(await f.balance(beta, stableToken(beta, 'DAI'), recipient)).toBe(0n);
    expect(await f.balance(beta, stableToken(beta, 'USDC'), plan.destination!.address)).toBe(0n);
    const rows = await f.rowsOf(intentId);
    expect(rows.destination?.status).toBe('FAILED');
    expect(rows.destination?.statusReason).toMatch(c.destinationReason);
    await f.expectMinedRow(rows.refund);
    expect(rows.refund?.txnHash).toBe(rows.destination?.txnHash);
    return { intentId, plan, rows };
  });
}
