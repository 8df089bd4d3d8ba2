/**
 * Step `settle` (operator work; the user's status does not depend on it): the attester signs the fill it
 * read from the destination chain, and the relayer repays the solver on the origin chain, in a batch
 * shared with other intents' settlements (src/engine/settlement-batcher.ts) or, when that batch cannot be
 * sent or reverts, in an `OriginSettler.settle` of its own. Idempotent: an order already Settled (or
 * Refunded) is left alone; a journaled single settle is resumed. Every signed transaction, attestation
 * included, is stored before it is broadcast.
 */
import type { Address, Hex, PublicClient } from 'viem';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { originSettlerAbi } from '../../contracts/abis.generated.ts';
import { encodeFillProof, encodeSettle } from '../../contracts/calldata.ts';
import { OrderStatus } from '../../contracts/types.ts';
import type { EngineContext, StepDefinition } from '../context.ts';
import { UnexpectedOutcomeError } from '../errors.ts';
import { isRetryable } from '../is-retryable.ts';
import { FILL_PURPOSE } from './fill.ts';
import { loadOrder } from './load-order.ts';

export const SETTLE_PURPOSE = 'settle';

export const settleStep: StepDefinition = {
  name: 'settle',
  runsAfterTerminal: true,
  async run(ctx, input) {
    const { intent } = input;
    const { order, orderId, originChainId } = await loadOrder(ctx, input);
    const origin = ctx.chain(originChainId);
    const dest = ctx.chain(order.destChainId);
    const settler = origin.config.contracts.originSettler;
    // One read of the intent's journal for its settle and its fill: the fill step journals settlement as it
    // completes, so its rows are final by now, and only this step (its lease held) journals a settle.
    const rows = await ctx.store.signedTransactions.listForIntent(intent.intentId);
    const journaled = rows.filter((t) => t.purpose === SETTLE_PURPOSE && t.chainId === origin.config.chainId);
    const isOver = () => orderOver(ctx, origin.client, settler, orderId);
    if (journaled.length === 0 && (await isOver())) return { kind: 'done', next: [] };
    const fillHash = rows.find(
      (t) => t.purpose === FILL_PURPOSE && t.chainId === dest.config.chainId && t.status === 'mined',
    )?.hash as Hex | undefined;
    const attestation = await ctx.attester.attest({
      order,
      orderId,
      originChainId,
      verifier: origin.config.contracts.fillVerifier,
      destClient: dest.client,
      destConfirmations: dest.config.confirmations,
      ...(fillHash && { fillTransactionHash: fillHash }),
    });
    const proof = encodeFillProof(attestation.filler, attestation.signature);
    // A journaled single settle is resumed below; only a fresh settlement joins a batch.
    if (journaled.length === 0 && ctx.settlements) {
      try {
        const sent = await ctx.settlements.settle({
          chainId: origin.config.chainId,
          settler,
          orderId,
          settlement: { orderData: order, repaymentAddr: attestation.repaymentAddr, proof },
          intentId: intent.intentId,
        });
        ctx.log.info('order settled in a batch', { intentId: intent.intentId, orderId, hash: sent.hash });
        return { kind: 'done', next: [] };
      } catch (error) {
        if (isRetryable(error)) throw error;
        ctx.log.warn('the settlement batch failed; settling this order on its own', {
          intentId: intent.intentId,
          orderId,
          error,
        });
        // Another batch may have settled it meanwhile (one finished after a restart).
        if (await isOver()) return { kind: 'done', next: [] };
      }
    }
    const sent = await ctx.sender.sendOnce({
      // The rows read above: only this step (its lease held) journals this intent's settle.
      journaled,
      chainId: origin.config.chainId,
      account: ctx.keys.relayer,
      to: settler,
      data: encodeSettle(order, attestation.repaymentAddr, proof),
      purpose: SETTLE_PURPOSE,
      intentId: intent.intentId,
    });
    if (sent.receipt.status !== 'success') {
      throw new UnexpectedOutcomeError('the settle transaction reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    ctx.log.info('order settled', { intentId: intent.intentId, orderId, hash: sent.hash });
    return { kind: 'done', next: [] };
  },
  async giveUp(ctx, { intent }, reason) {
    ctx.log.error('settlement gave up: the solver is not repaid for this fill', {
      intentId: intent.intentId,
      reason,
    });
  },
};

/** Settled (done) or Refunded (the solver is not repaid; logged) on the origin chain: nothing to settle. */
async function orderOver(
  ctx: EngineContext,
  client: PublicClient,
  settler: Address,
  orderId: Hex,
): Promise<boolean> {
  const status = await withChainErrors(() =>
    client.readContract({
      address: settler,
      abi: originSettlerAbi,
      functionName: 'orderStatus',
      args: [orderId],
    }),
  );
  if (status === OrderStatus.Refunded)
    ctx.log.warn('order was refunded before it was settled: the solver is not repaid', { orderId });
  return status === OrderStatus.Settled || status === OrderStatus.Refunded;
}
