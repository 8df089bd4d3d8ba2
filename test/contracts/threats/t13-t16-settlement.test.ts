/**
 * Threats #13–#16 of contracts-brief §3: settling without a fill, double settle / refund, the refund racing
 * the fill, and double or altered fills. Two anvil chains (origin A, destination B); every test starts from
 * the same snapshot.
 */
import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  encodeFill,
  encodeFillProof,
  encodeOrderRefund,
  encodeSettle,
} from '../../../src/contracts/calldata.ts';
import { computeOrderId } from '../../../src/contracts/order-id.ts';
import { FillStatus, type OrderData, OrderStatus } from '../../../src/contracts/types.ts';
import { type Role, TEST_GRACE_SECONDS, type TestChain } from '../../harness/chain.ts';
import { buildRoute, DEPOSIT, FEE, OUTPUT, type Route } from '../route.ts';
import { newAddress } from './support/fixture.ts';
import {
  attestFill,
  depositAndOpen,
  expectRevertOnChain,
  fillOrder,
  fillStatusOf,
  orderStatusOf,
  USDC,
  useSettlementChains,
  warpTo,
} from './t13-t23-support.ts';

/** What the origin account locks: the deposit minus the fee. */
const INPUT = DEPOSIT - FEE;
const SOLVER_INVENTORY = 10_000n * USDC;

describe('settlement threats #13–#16', () => {
  let origin: TestChain;
  let dest: TestChain;
  useSettlementChains([7_771_301, 7_771_302], SOLVER_INVENTORY, (o, d) => {
    origin = o;
    dest = d;
  });

  interface OpenOrder {
    route: Route;
    order: OrderData;
    orderId: Hex;
  }

  /** A route whose origin intent has been deposited and executed: its order is Open on the origin. */
  async function openOrder(): Promise<OpenOrder> {
    const route = await buildRoute({
      origin,
      dest,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient: newAddress(),
    });
    const { order, orderId } = await depositAndOpen(origin, route, INPUT);
    return { route, order, orderId };
  }

  const usdcA = (holder: Address) => origin.balanceOf(origin.tokens.usdc, holder);
  const usdcB = (holder: Address) => dest.balanceOf(dest.tokens.usdc, holder);
  const settleTx = (order: OrderData, repaymentAddr: Address, proof: Hex) => ({
    to: origin.contracts.originSettler,
    data: encodeSettle(order, repaymentAddr, proof),
  });
  const refundTx = (order: OrderData) => ({
    to: origin.contracts.originSettler,
    data: encodeOrderRefund(order),
  });
  const fillTx = (order: OrderData, repaymentAddr: Address) => ({
    to: dest.contracts.destinationSettler,
    data: encodeFill(order, BigInt(origin.chainId), origin.contracts.originSettler, repaymentAddr),
  });
  /** The attestation of a fill of `orderId` by the solver, repaid to the solver, signed by `signer`. */
  const solverProof = (orderId: Hex, signer?: Role) => {
    const { solver } = origin.accounts;
    return attestFill(origin, dest, {
      orderId,
      filler: solver.address,
      repaymentAddr: solver.address,
      signer,
    });
  };
  /** `from` settles `order` on the origin for `repaymentAddr`; expects `errorName` and returns its args. */
  const settleReverts = (
    from: Role,
    order: OrderData,
    repaymentAddr: Address,
    proof: Hex,
    errorName: string,
  ) => expectRevertOnChain(origin, from, settleTx(order, repaymentAddr, proof), errorName);

  describe('#13 OriginSettler.settle without a fill', () => {
    it('reverts FillNotVerified when the proof carries no attester signature', async () => {
      const { order, orderId } = await openOrder();
      const { solver } = origin.accounts;
      const solverBefore = await usdcA(solver.address);

      const args = await settleReverts(
        'solver',
        order,
        solver.address,
        encodeFillProof(solver.address, '0x'),
        'FillNotVerified',
      );
      expect(args).toEqual([orderId]);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Open);
      expect(await usdcA(origin.contracts.originSettler)).toBe(INPUT);
      expect(await usdcA(solver.address)).toBe(solverBefore);
    });

    it('reverts FillNotVerified when the relayer key, not the attester, signs the attestation', async () => {
      const { order, orderId } = await openOrder();
      const { solver } = origin.accounts;
      const solverBefore = await usdcA(solver.address);
      const forged = await solverProof(orderId, 'relayer');

      const args = await settleReverts('relayer', order, solver.address, forged, 'FillNotVerified');
      expect(args).toEqual([orderId]);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Open);
      expect(await usdcA(origin.contracts.originSettler)).toBe(INPUT);
      expect(await usdcA(solver.address)).toBe(solverBefore);
      expect(await fillStatusOf(dest, orderId)).toBe(FillStatus.Unfilled);
    });

    it("reverts FillNotVerified when the attestation is another order's (a real fill of order 2 cannot settle order 1)", async () => {
      const first = await openOrder();
      const second = await openOrder();
      const { solver } = origin.accounts;
      await fillOrder(origin, dest, second.order, solver.address);
      const proofOfSecond = await solverProof(second.orderId);
      const solverBefore = await usdcA(solver.address);

      const args = await settleReverts(
        'solver',
        first.order,
        solver.address,
        proofOfSecond,
        'FillNotVerified',
      );
      expect(args).toEqual([first.orderId]);
      expect(await orderStatusOf(origin, first.orderId)).toBe(OrderStatus.Open);
      expect(await usdcA(origin.contracts.originSettler)).toBe(2n * INPUT);
      expect(await usdcA(solver.address)).toBe(solverBefore);

      // The attestation still settles the order it names, once.
      await origin.send('solver', settleTx(second.order, solver.address, proofOfSecond));
      expect(await usdcA(solver.address)).toBe(solverBefore + INPUT);
      expect(await usdcA(origin.contracts.originSettler)).toBe(INPUT);
    });

    it('reverts FillNotVerified when the submitter swaps in another repayment address', async () => {
      const { order, orderId } = await openOrder();
      const { solver, stranger } = origin.accounts;
      await fillOrder(origin, dest, order, solver.address);
      const proof = await solverProof(orderId);
      const strangerBefore = await usdcA(stranger.address);

      const args = await settleReverts('stranger', order, stranger.address, proof, 'FillNotVerified');
      expect(args).toEqual([orderId]);
      expect(await usdcA(stranger.address)).toBe(strangerBefore);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Open);

      // Control: the same proof with the attested repayment address pays the solver.
      const solverBefore = await usdcA(solver.address);
      await origin.send('stranger', settleTx(order, solver.address, proof));
      expect(await usdcA(solver.address)).toBe(solverBefore + INPUT);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Settled);
    });
  });

  describe('#14 one status transition per order', () => {
    async function openFillAndAttest(): Promise<OpenOrder & { proof: Hex }> {
      const opened = await openOrder();
      const { solver } = origin.accounts;
      await fillOrder(origin, dest, opened.order, solver.address);
      const proof = await solverProof(opened.orderId);
      return { ...opened, proof };
    }

    async function warpPastGrace(order: OrderData): Promise<void> {
      await warpTo([origin, dest], order.fillDeadline + TEST_GRACE_SECONDS + 1n);
    }

    it('a second settle reverts InvalidStatus(orderId, Open, Settled) and pays nothing more', async () => {
      const { order, orderId, proof } = await openFillAndAttest();
      const { solver } = origin.accounts;
      const solverBefore = await usdcA(solver.address);
      await origin.send('solver', settleTx(order, solver.address, proof));

      const args = await settleReverts('solver', order, solver.address, proof, 'InvalidStatus');
      expect(args).toEqual([orderId, OrderStatus.Open, OrderStatus.Settled]);
      expect(await usdcA(solver.address)).toBe(solverBefore + INPUT);
      expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
    });

    it('settle after a refund reverts InvalidStatus(orderId, Open, Refunded): the owner keeps the refund', async () => {
      // The solver filled in time but did not settle within the grace period.
      const { order, orderId, proof } = await openFillAndAttest();
      const { solver, user } = origin.accounts;
      await warpPastGrace(order);
      const userBefore = await usdcA(user.address);
      await origin.send('stranger', refundTx(order));
      expect(await usdcA(user.address)).toBe(userBefore + INPUT);
      const solverBefore = await usdcA(solver.address);

      const args = await settleReverts('solver', order, solver.address, proof, 'InvalidStatus');
      expect(args).toEqual([orderId, OrderStatus.Open, OrderStatus.Refunded]);
      expect(await usdcA(solver.address)).toBe(solverBefore);
      expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
    });

    it('a refund after settle reverts InvalidStatus(orderId, Open, Settled): the solver keeps its repayment', async () => {
      const { order, orderId, proof } = await openFillAndAttest();
      const { solver, user } = origin.accounts;
      await origin.send('solver', settleTx(order, solver.address, proof));
      await warpPastGrace(order);
      const userBefore = await usdcA(user.address);
      const solverAfterSettle = await usdcA(solver.address);

      const args = await expectRevertOnChain(origin, 'stranger', refundTx(order), 'InvalidStatus');
      expect(args).toEqual([orderId, OrderStatus.Open, OrderStatus.Settled]);
      expect(await usdcA(user.address)).toBe(userBefore);
      expect(await usdcA(solver.address)).toBe(solverAfterSettle);
    });

    it('a second refund reverts InvalidStatus(orderId, Open, Refunded) and pays the owner once', async () => {
      const { order, orderId } = await openOrder();
      const { user } = origin.accounts;
      await warpPastGrace(order);
      const userBefore = await usdcA(user.address);
      await origin.send('stranger', refundTx(order));

      const args = await expectRevertOnChain(origin, 'stranger', refundTx(order), 'InvalidStatus');
      expect(args).toEqual([orderId, OrderStatus.Open, OrderStatus.Refunded]);
      expect(await usdcA(user.address)).toBe(userBefore + INPUT);
      expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
    });
  });

  describe('#15 the refund racing the fill', () => {
    it('after fillDeadline fill reverts; refund waits for the grace period, then pays the owner', async () => {
      const { route, order, orderId } = await openOrder();
      const { user } = origin.accounts;
      const { fillDeadline } = order;
      const refundableAfter = fillDeadline + TEST_GRACE_SECONDS;

      // The next block on both chains is at fillDeadline + 1: too late to fill, too early to refund.
      const justLate = fillDeadline + 1n;
      await Promise.all(
        [origin, dest].map((c) => c.testClient.setNextBlockTimestamp({ timestamp: justLate })),
      );
      const lateFill = await expectRevertOnChain(
        dest,
        'solver',
        fillTx(order, dest.accounts.solver.address),
        'FillDeadlinePassed',
      );
      expect(lateFill).toEqual([fillDeadline, justLate]);
      expect(await usdcB(route.destAccount)).toBe(0n);
      expect(await fillStatusOf(dest, orderId)).toBe(FillStatus.Unfilled);

      const early = await expectRevertOnChain(origin, 'stranger', refundTx(order), 'RefundTooEarly');
      expect(early).toEqual([refundableAfter, justLate]);

      // Exactly at fillDeadline + grace the settle window is still open.
      await origin.testClient.setNextBlockTimestamp({ timestamp: refundableAfter });
      const atEdge = await expectRevertOnChain(origin, 'stranger', refundTx(order), 'RefundTooEarly');
      expect(atEdge).toEqual([refundableAfter, refundableAfter]);

      // One second later anyone can refund, and only to the order's refund recipient.
      await warpTo([origin, dest], refundableAfter + 1n);
      const userBefore = await usdcA(user.address);
      await origin.send('stranger', refundTx(order));
      expect(await usdcA(user.address)).toBe(userBefore + INPUT);
      expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Refunded);
    });

    it('a fill at exactly fillDeadline succeeds, and its solver can still settle during the grace period', async () => {
      const { route, order, orderId } = await openOrder();
      const { solver } = origin.accounts;
      await warpTo([origin, dest], order.fillDeadline - 1n);
      await dest.testClient.setNextBlockTimestamp({ timestamp: order.fillDeadline });
      await fillOrder(origin, dest, order, solver.address);
      expect(await usdcB(route.destAccount)).toBe(OUTPUT);

      await origin.testClient.setNextBlockTimestamp({ timestamp: order.fillDeadline + 1n });
      await expectRevertOnChain(origin, 'stranger', refundTx(order), 'RefundTooEarly');
      const proof = await solverProof(orderId);
      const solverBefore = await usdcA(solver.address);
      await origin.send('solver', settleTx(order, solver.address, proof));
      expect(await usdcA(solver.address)).toBe(solverBefore + INPUT);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Settled);
    });
  });

  describe('#16 double fill, or a fill with altered params', () => {
    it('a second fill reverts AlreadyFilled(orderId, firstFiller) and moves no tokens', async () => {
      const { route, order, orderId } = await openOrder();
      const { solver } = dest.accounts;
      await fillOrder(origin, dest, order, solver.address);
      const solverBefore = await usdcB(solver.address);

      const args = await expectRevertOnChain(dest, 'solver', fillTx(order, solver.address), 'AlreadyFilled');
      expect(args).toEqual([orderId, solver.address]);
      expect(await usdcB(route.destAccount)).toBe(OUTPUT);
      expect(await usdcB(solver.address)).toBe(solverBefore);
    });

    it('a fill with a lower outputAmount gets an order id that was never opened, so it cannot be settled', async () => {
      const { route, order, orderId } = await openOrder();
      const { solver } = origin.accounts;
      const altered: OrderData = { ...order, outputAmount: OUTPUT - 1n };
      const alteredId = computeOrderId(altered, BigInt(origin.chainId), origin.contracts.originSettler);
      expect(alteredId).not.toBe(orderId);
      await fillOrder(origin, dest, altered, solver.address);
      expect(await usdcB(route.destAccount)).toBe(OUTPUT - 1n);
      expect(await fillStatusOf(dest, orderId)).toBe(FillStatus.Unfilled);
      expect(await orderStatusOf(origin, alteredId)).toBe(OrderStatus.None);

      // An honest attester signs the fill it saw, i.e. the altered order id.
      const proof = await solverProof(alteredId);
      const solverBefore = await usdcA(solver.address);
      const againstReal = await settleReverts('solver', order, solver.address, proof, 'FillNotVerified');
      expect(againstReal).toEqual([orderId]);
      const againstAltered = await settleReverts('solver', altered, solver.address, proof, 'InvalidStatus');
      expect(againstAltered).toEqual([alteredId, OrderStatus.Open, OrderStatus.None]);
      expect(await usdcA(solver.address)).toBe(solverBefore);
      expect(await usdcA(origin.contracts.originSettler)).toBe(INPUT);
      expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Open);
    });
  });
});
