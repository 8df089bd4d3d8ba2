/**
 * A price move between quote and execution beyond the slippage tolerance, in the Uniswap V3 pool a route
 * goes through: SwapRouter02 refuses the swap ('Too little received') and the owner is refunded the way the
 * engine's refund paths say — on the origin, the origin transaction fails and the deposit returns after the
 * deadline; on the destination, the destination account refunds the bridged token in the same transaction.
 * The move is another account's sale into the seeded 0.01 % USDC/DAI pool: 1,800,000 of one side, past the
 * ±0.2 % position and most of the ±1 % one, so the price moves ~0.9 %, beyond the default 0.5 %.
 */
import { type Address, encodeFunctionData, type Hex, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STABLE_FEE_TIER } from '../../src/devnet/constants.ts';
import { swapRouter02Abi } from '../../src/providers/abis.ts';
import {
  expectDestinationSlippageRefund,
  expectOriginSlippageRefund,
  type Stable,
  sellStable,
} from '../engine/refunds/slippage-scenarios.ts';
import { type RefundFixture, startRefundFixture } from '../engine/refunds/support.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

/** Whole tokens sold into the stable pool to move its price (see above). */
const PRICE_MOVING_SALE = '1800000';

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

/** The deployer sells `sell` into the chain's 0.01 % USDC/DAI V3 pool through SwapRouter02. */
async function moveV3Price(chain: TestDevnetChain, sell: Stable): Promise<void> {
  const router = chain.entry.contracts.uniswapSwapRouter02 as Address;
  await sellStable(chain, sell, PRICE_MOVING_SALE, router, ({ from, to, amount, me, deadline }) => {
    const path = `${from}${STABLE_FEE_TIER.fee.toString(16).padStart(6, '0')}${to.slice(2)}` as Hex;
    const swap = encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: 'exactInput',
      args: [{ path, recipient: me, amountIn: amount, amountOutMinimum: 0n }],
    });
    return encodeFunctionData({ abi: swapRouter02Abi, functionName: 'multicall', args: [deadline, [swap]] });
  });
}

describe('a V3 price move beyond the slippage refunds the owner', () => {
  it('on the origin swap: origin FAILED (Too little received), the deposit returned after the deadline', async () => {
    await expectOriginSlippageRefund(f, {
      alpha,
      beta,
      request: { originTokenAmount: parseUnits('1000', 18) },
      checkPlan: (plan) => {
        expect(plan.routeProviders).toEqual(['UNISWAP_V3', 'SWITCHYARD']);
        expect(plan.swapRoutes![0]!.parts.map((p) => p.fees)).toEqual([[STABLE_FEE_TIER.fee]]);
      },
      movePrice: () => moveV3Price(alpha, 'DAI'), // DAI now buys ~0.9 % less USDC than quoted
      failure: /Too little received/,
      refundReason: /the origin was not executed \(.*Too little received.*\)$/,
    });
  }, 60_000);

  it('on the destination swap: the destination account refunds the owner on the destination in the same transaction', async () => {
    await expectDestinationSlippageRefund(f, {
      alpha,
      beta,
      request: { originTokenAmount: parseUnits('1000', 6) },
      checkPlan: (plan) => expect(plan.routeProviders).toEqual(['SWITCHYARD', 'UNISWAP_V3']),
      movePrice: () => moveV3Price(beta, 'USDC'), // USDC now buys ~0.9 % less DAI than quoted
      destinationReason: /^destination calls failed: .*Too little received.*; the owner was refunded/,
    });
  }, 60_000);
});
