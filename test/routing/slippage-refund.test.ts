/**
 * A price move between quote and execution beyond the slippage tolerance, in the Uniswap V3 pool a route
 * goes through: SwapRouter02 refuses the swap ('Too little received') and the owner is refunded the way the
 * engine's refund paths say — on the origin, the origin transaction fails and the deposit returns after the
 * deadline; on the destination, the destination account refunds the bridged token in the same transaction.
 * The move is another account's sale into the seeded 0.01 % USDC/DAI pool: 1,800,000 of one side, past the
 * ±0.2 % position and most of the ±1 % one, so the price moves ~0.9 %, beyond the default 0.5 %.
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintableTokenAbi } from '../../src/devnet/abis.ts';
import { STABLE_FEE_TIER } from '../../src/devnet/constants.ts';
import { swapRouter02Abi } from '../../src/providers/abis.ts';
import { type RefundFixture, startRefundFixture } from '../engine/refunds/support.ts';
import { freshAddress } from '../engine/support/engine-fixture.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

/** Whole tokens sold into the stable pool to move its price (see above). */
const PRICE_MOVING_SALE = '1800000';

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
let feeCollector: Address;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
  feeCollector = f.net.devnet.accounts.feeCollector!.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const token = (chain: TestDevnetChain, symbol: 'USDC' | 'DAI') => chain.entry.tokens[symbol]! as Address;

/** The deployer mints `sell` and sells it into the chain's 0.01 % USDC/DAI V3 pool through SwapRouter02. */
async function moveV3Price(chain: TestDevnetChain, sell: 'USDC' | 'DAI'): Promise<void> {
  const wallet = chain.walletFor('deployer');
  const router = chain.entry.contracts.uniswapSwapRouter02 as Address;
  const from = token(chain, sell);
  const to = token(chain, sell === 'USDC' ? 'DAI' : 'USDC');
  const amount = parseUnits(PRICE_MOVING_SALE, sell === 'USDC' ? 6 : 18);
  const me = wallet.account.address;
  const send = async (target: Address, data: `0x${string}`) => {
    const hash = await wallet.sendTransaction({ to: target, data });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
  };
  await send(from, encodeFunctionData({ abi: mintableTokenAbi, functionName: 'mint', args: [me, amount] }));
  await send(
    from,
    encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
  );
  const path = `${from}${STABLE_FEE_TIER.fee.toString(16).padStart(6, '0')}${to.slice(2)}` as `0x${string}`;
  const swap = encodeFunctionData({
    abi: swapRouter02Abi,
    functionName: 'exactInput',
    args: [{ path, recipient: me, amountIn: amount, amountOutMinimum: 0n }],
  });
  const deadline = (await chain.publicClient.getBlock()).timestamp + 600n;
  await send(
    router,
    encodeFunctionData({ abi: swapRouter02Abi, functionName: 'multicall', args: [deadline, [swap]] }),
  );
}

describe('a V3 price move beyond the slippage refunds the owner', () => {
  it('on the origin swap: origin FAILED (Too little received), the deposit returned after the deadline', async () => {
    const engine = await f.startRefundEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: token(alpha, 'DAI'),
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: token(beta, 'USDC'),
      destinationToAddress: recipient,
      originTokenAmount: parseUnits('1000', 18),
      serviceFeeBps: 25n,
    });
    expect(plan.routeProviders).toEqual(['UNISWAP_V3', 'SWITCHYARD']);
    expect(plan.swapRoutes![0]!.parts.map((p) => p.fees)).toEqual([[STABLE_FEE_TIER.fee]]);
    await moveV3Price(alpha, 'DAI'); // DAI now buys ~0.9 % less USDC than quoted
    const userDai = await f.balance(alpha, token(alpha, 'DAI'), user);
    const feeBefore = await f.balance(alpha, token(alpha, 'DAI'), feeCollector);
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    await f.waitForStep(intentId, 'origin', 'failed');
    const rows = await f.rowsOf(intentId);
    expect(rows.origin?.status).toBe('FAILED');
    expect(rows.origin?.statusReason).toMatch(/Too little received/);

    await f.warpPast(alpha, plan.origin.intent.deadline);
    expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
    expect(await f.balance(alpha, token(alpha, 'DAI'), user)).toBe(userDai);
    expect(await f.balance(alpha, token(alpha, 'DAI'), feeCollector)).toBe(feeBefore);
    expect(await f.balance(alpha, token(alpha, 'DAI'), plan.origin.address)).toBe(0n);
    expect(await f.balance(beta, token(beta, 'USDC'), recipient)).toBe(0n);
    const refund = (await f.rowsOf(intentId)).refund;
    await f.expectMinedRow(refund);
    expect(refund?.tokenAmount).toBe(plan.origin.intent.depositAmount);
    expect(refund?.statusReason).toMatch(/the origin was not executed \(.*Too little received.*\)$/);
    await engine.stop();
  }, 60_000);

  it('on the destination swap: the destination account refunds the owner on the destination in the same transaction', async () => {
    const engine = await f.startRefundEngine();
    const recipient = freshAddress();
    const { intentId, plan } = await f.commit({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: token(alpha, 'USDC'),
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: token(beta, 'DAI'),
      destinationToAddress: recipient,
      originTokenAmount: parseUnits('1000', 6),
      serviceFeeBps: 25n,
    });
    expect(plan.routeProviders).toEqual(['SWITCHYARD', 'UNISWAP_V3']);
    await moveV3Price(beta, 'USDC'); // USDC now buys ~0.9 % less DAI than quoted
    const userA = await f.balance(alpha, token(alpha, 'USDC'), user);
    const userB = await f.balance(beta, token(beta, 'USDC'), user);
    await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
    expect(await f.balance(alpha, token(alpha, 'USDC'), user)).toBe(userA - plan.origin.intent.depositAmount);
    expect(await f.balance(beta, token(beta, 'USDC'), user)).toBe(userB + plan.order!.outputAmount);
    expect(await f.balance(beta, token(beta, 'DAI'), recipient)).toBe(0n);
    expect(await f.balance(beta, token(beta, 'USDC'), plan.destination!.address)).toBe(0n);
    const rows = await f.rowsOf(intentId);
    expect(rows.destination?.status).toBe('FAILED');
    expect(rows.destination?.statusReason).toMatch(
      /^destination calls failed: .*Too little received.*; the owner was refunded/,
    );
    await f.expectMinedRow(rows.refund);
    expect(rows.refund?.txnHash).toBe(rows.destination?.txnHash);
    await engine.stop();
  }, 60_000);
});
