/**
 * Step `fill`: the solver fills the destination account from its own inventory through the
 * DestinationSettler. Idempotent: an order already filled is not filled again (fillStatus is read first),
 * and a journaled fill is resumed. The solver approves the settler once per token (max allowance).
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { RetryLaterError } from '../../chains/errors.ts';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { destinationSettlerAbi } from '../../contracts/abis.generated.ts';
import { encodeFill } from '../../contracts/calldata.ts';
import { FillStatus } from '../../contracts/types.ts';
import { balanceAt, chainNow } from '../chain-reads.ts';
import type { EngineContext, StepDefinition } from '../context.ts';
import { DeadlinePassedError, UnexpectedOutcomeError } from '../errors.ts';
import { writeRow } from '../receipts.ts';
import { loadOrder } from './load-order.ts';

export const FILL_PURPOSE = 'solver-fill';

export const fillStep: StepDefinition = {
  name: 'fill',
  async run(ctx, input) {
    const { intent } = input;
    const { order, orderId, originChainId } = await loadOrder(ctx, input);
    const dest = ctx.chain(order.destChainId);
    const destChainId = Number(order.destChainId);
    await writeRow(ctx.store, intent.intentId, 'destination', { chainId: destChainId, status: 'PENDING' });

    const status = await withChainErrors(() =>
      dest.client.readContract({
        address: order.destSettler,
        abi: destinationSettlerAbi,
        functionName: 'fillStatus',
        args: [orderId],
      }),
    );
    const request = {
      chainId: destChainId,
      account: ctx.keys.solver,
      to: order.destSettler,
      data: encodeFill(
        order,
        originChainId,
        ctx.chain(originChainId).config.contracts.originSettler,
        ctx.keys.solver.address,
      ),
      purpose: FILL_PURPOSE,
      intentId: intent.intentId,
    };
    const journaled = await ctx.sender.journaled(request);
    if (status === FillStatus.Filled && journaled.length === 0)
      return { kind: 'done', next: ['destination', 'settle'] };
    if (journaled.length === 0) {
      const now = await chainNow(dest.client);
      if (now > order.fillDeadline) {
        throw new DeadlinePassedError('the fill deadline passed before the fill', {
          details: { fillDeadline: order.fillDeadline, now },
        });
      }
      await ensureInventory(ctx, destChainId, order.outputToken, order.outputAmount, order.destSettler);
    }
    const sent = await ctx.sender.sendOnce(request);
    if (sent.receipt.status !== 'success') {
      throw new UnexpectedOutcomeError('the fill transaction reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    return { kind: 'done', next: ['destination', 'settle'] };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    // The locked amount stays in the OriginSettler, refundable after fillDeadline + grace (refund path).
    await writeRow(ctx.store, intent.intentId, 'destination', {
      chainId: Number(plan.destination?.intent.chainId ?? plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: `fill failed: ${reason}`,
    });
  },
};

/** Enough inventory and an allowance for the settler; short inventory waits (an operator rebalances). */
async function ensureInventory(
  ctx: EngineContext,
  chainId: number,
  token: Address,
  amount: bigint,
  settler: Address,
): Promise<void> {
  const { client } = ctx.chain(chainId);
  const solver = ctx.keys.solver.address;
  const balance = await balanceAt(client, token, solver);
  if (balance < amount) {
    throw new RetryLaterError('solver inventory is short on the destination chain', {
      details: { chainId, token, required: amount, actual: balance },
    });
  }
  // Fills of the same token run concurrently: without the lock each read a zero allowance and each sent an
  // approve (seen in test/resilience/random-kill.test.ts). The second one now reads the first's result.
  await ctx.sender.exclusive(`approve:${chainId}:${token.toLowerCase()}`, async () => {
    const allowance = await withChainErrors(() =>
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [solver, settler],
      }),
    );
    if (allowance >= amount) return;
    await ctx.sender.sendOnce({
      chainId,
      account: ctx.keys.solver,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [settler, maxUint256] }),
      purpose: `solver-approve:${token.toLowerCase()}`,
    });
  });
}
