/**
 * OriginSettler.settleBatch: several orders settled in one transaction, each exactly as `settle` would;
 * orders already over are skipped (SettlementSkipped), any other failure reverts the whole batch.
 * Two anvil chains (origin A, destination B); every test starts from the same snapshot.
 */
import { type Hex, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { originSettlerAbi } from '../../src/contracts/abis.generated.ts';
import {
  encodeFillProof,
  encodeOrderRefund,
  encodeSettle,
  encodeSettleBatch,
  type SettlementArgs,
} from '../../src/contracts/calldata.ts';
import { type OrderData, OrderStatus } from '../../src/contracts/types.ts';
import { TEST_GRACE_SECONDS, type TestChain } from '../harness/chain.ts';
import { buildRoute, DEPOSIT, FEE, OUTPUT } from './route.ts';
import { newAddress } from './threats/support/fixture.ts';
import {
  attestFill,
  depositAndOpen,
  expectRevertOnChain,
  fillOrder,
  orderStatusOf,
  USDC,
  useSettlementChains,
  warpTo,
} from './threats/t13-t23-support.ts';

/** What each origin account locks: the deposit minus the fee. */
const INPUT = DEPOSIT - FEE;
const SOLVER_INVENTORY = 10_000n * USDC;

describe('OriginSettler.settleBatch', () => {
  let origin: TestChain;
  let dest: TestChain;
  useSettlementChains([7_771_331, 7_771_332], SOLVER_INVENTORY, (o, d) => {
    origin = o;
    dest = d;
  });

  const usdcA = (holder: `0x${string}`) => origin.balanceOf(origin.tokens.usdc, holder);
  const batchTx = (settlements: SettlementArgs[]) => ({
    to: origin.contracts.originSettler,
    data: encodeSettleBatch(settlements),
  });

  interface Ready {
    order: OrderData;
    orderId: Hex;
    settlement: SettlementArgs;
  }

  /** An order opened on the origin, filled by the solver on the destination and attested: ready to settle. */
  async function readyOrder(options: { fill: boolean } = { fill: true }): Promise<Ready> {
    const route = await buildRoute({
      origin,
      dest,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient: newAddress(),
    });
    const { order, orderId } = await depositAndOpen(origin, route, INPUT);
    const { solver } = origin.accounts;
    if (options.fill) await fillOrder(origin, dest, order, solver.address);
    const proof = await attestFill(origin, dest, {
      orderId,
      filler: solver.address,
      repaymentAddr: solver.address,
    });
    return { order, orderId, settlement: { orderData: order, repaymentAddr: solver.address, proof } };
  }

  it('settles every order of the batch in one transaction and repays the solver for each', async () => {
    const ready = [await readyOrder(), await readyOrder(), await readyOrder()];
    const { solver } = origin.accounts;
    const solverBefore = await usdcA(solver.address);
    const settlements = ready.map((r) => r.settlement);

    const { result } = await origin.publicClient.simulateContract({
      account: origin.accounts.relayer,
      address: origin.contracts.originSettler,
      abi: originSettlerAbi,
      functionName: 'settleBatch',
      args: [settlements],
    });
    expect(result).toBe(3n);
    const receipt = await origin.send('relayer', batchTx(settlements));

    const settled = parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderSettled', logs: receipt.logs });
    expect(settled.map((e) => e.args.orderId)).toEqual(ready.map((r) => r.orderId));
    expect(settled.every((e) => e.args.repaymentAddr === solver.address)).toBe(true);
    for (const r of ready) expect(await orderStatusOf(origin, r.orderId)).toBe(OrderStatus.Settled);
    expect(await usdcA(solver.address)).toBe(solverBefore + 3n * INPUT);
    expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
  });

  it('skips orders already settled or refunded (SettlementSkipped) and settles the rest', async () => {
    const settledAlone = await readyOrder();
    const refunded = await readyOrder();
    const open = await readyOrder();
    const { solver, user } = origin.accounts;
    await origin.send('relayer', {
      to: origin.contracts.originSettler,
      data: encodeSettle(settledAlone.order, solver.address, settledAlone.settlement.proof),
    });
    await warpTo([origin, dest], refunded.order.fillDeadline + TEST_GRACE_SECONDS + 1n);
    await origin.send('stranger', {
      to: origin.contracts.originSettler,
      data: encodeOrderRefund(refunded.order),
    });
    const solverBefore = await usdcA(solver.address);
    const userBefore = await usdcA(user.address);

    const receipt = await origin.send(
      'relayer',
      batchTx([settledAlone.settlement, refunded.settlement, open.settlement]),
    );

    const skipped = parseEventLogs({
      abi: originSettlerAbi,
      eventName: 'SettlementSkipped',
      logs: receipt.logs,
    });
    expect(skipped.map((e) => [e.args.orderId, e.args.status])).toEqual([
      [settledAlone.orderId, OrderStatus.Settled],
      [refunded.orderId, OrderStatus.Refunded],
    ]);
    const settled = parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderSettled', logs: receipt.logs });
    expect(settled.map((e) => e.args.orderId)).toEqual([open.orderId]);
    expect(await orderStatusOf(origin, open.orderId)).toBe(OrderStatus.Settled);
    expect(await orderStatusOf(origin, refunded.orderId)).toBe(OrderStatus.Refunded);
    // Only the open order paid out; the owner keeps the refund.
    expect(await usdcA(solver.address)).toBe(solverBefore + INPUT);
    expect(await usdcA(user.address)).toBe(userBefore);
    expect(await usdcA(origin.contracts.originSettler)).toBe(0n);
  });

  it('reverts the whole batch with FillNotVerified when one proof is not the attester’s; nothing moves', async () => {
    const good = await readyOrder();
    const unfilled = await readyOrder({ fill: false });
    const forged = {
      ...unfilled.settlement,
      proof: encodeFillProof(origin.accounts.solver.address, '0x'),
    };
    const solverBefore = await usdcA(origin.accounts.solver.address);

    const args = await expectRevertOnChain(
      origin,
      'relayer',
      batchTx([good.settlement, forged]),
      'FillNotVerified',
    );
    expect(args).toEqual([unfilled.orderId]);
    expect(await orderStatusOf(origin, good.orderId)).toBe(OrderStatus.Open);
    expect(await usdcA(origin.accounts.solver.address)).toBe(solverBefore);
    expect(await usdcA(origin.contracts.originSettler)).toBe(2n * INPUT);
  });

  it('reverts InvalidStatus(orderId, Open, None) for an order that was never opened', async () => {
    const good = await readyOrder();
    const neverOpened = { ...good.order, nonce: `0x${'ab'.repeat(32)}` as Hex };
    const bogus = { ...good.settlement, orderData: neverOpened };

    const args = await expectRevertOnChain(
      origin,
      'relayer',
      batchTx([good.settlement, bogus]),
      'InvalidStatus',
    );
    expect(args[1]).toBe(OrderStatus.Open);
    expect(args[2]).toBe(OrderStatus.None);
    expect(await orderStatusOf(origin, good.orderId)).toBe(OrderStatus.Open);
  });

  it('reverts EmptyBatch when given no settlements', async () => {
    const args = await expectRevertOnChain(origin, 'relayer', batchTx([]), 'EmptyBatch');
    expect(args).toEqual([]);
  });
});
