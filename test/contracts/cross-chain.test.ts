import { type Address, encodeFunctionData, parseEventLogs, type TransactionReceipt } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
  revertingTargetAbi,
} from '../../src/contracts/abis.generated.ts';
import {
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRefund,
  encodeSettle,
} from '../../src/contracts/calldata.ts';
import { computeOrderId } from '../../src/contracts/order-id.ts';
import { AccountState, FillStatus, OrderStatus } from '../../src/contracts/types.ts';
import { expectRevert, type TestChain } from '../harness/chain.ts';
import { buildRoute, DEPOSIT, FEE, OUTPUT, openedOrder, type Route, type RouteParams } from './route.ts';
import { accountStateOf } from './threats/support/fixture.ts';
import {
  allowanceOf,
  attestFill,
  fillOrder,
  fillStatusOf,
  fundSolver,
  orderStatusOf,
  transferToken,
  USDC,
} from './threats/t13-t23-support.ts';
import { useTestChains } from './use-test-chains.ts';

const SOLVER_INVENTORY = 10_000n * USDC;

describe('lock → fill → settle across two anvil chains', () => {
  let origin: TestChain;
  let dest: TestChain;
  useTestChains([7_770_401, 7_770_402], async (started) => {
    [origin, dest] = started;
    await fundSolver(dest, dest.tokens.usdc, SOLVER_INVENTORY);
  });

  const newRecipient = (): Address => privateKeyToAddress(generatePrivateKey());
  /** A route of DEPOSIT (FEE to the collector) from the user on `origin` to OUTPUT for `recipient` on `dest`. */
  const routeTo = (recipient: Address, destCalls?: RouteParams['destCalls']): Promise<Route> =>
    buildRoute({
      origin,
      dest,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient,
      destCalls,
    });

  async function executeOrigin(route: Route): Promise<TransactionReceipt> {
    return origin.send('relayer', {
      to: origin.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(route.origin),
    });
  }

  it('delivers to the recipient, pays fee and surplus, and repays the solver after attestation', async () => {
    const recipient = newRecipient();
    const route = await routeTo(recipient);
    const { user, feeCollector, solver, attester } = origin.accounts;
    const surplus = 1n * USDC;
    await origin.mint(origin.tokens.usdc, user.address, DEPOSIT + surplus);
    const userBefore = await origin.balanceOf(origin.tokens.usdc, user.address);

    // 1. The user deposits (with 1 USDC too much) to the origin intent address.
    await transferToken(origin, 'user', origin.tokens.usdc, route.originAccount, DEPOSIT + surplus);

    // 2. The relayer executes the origin intent: fee, lock, surplus back to the owner.
    const originReceipt = await executeOrigin(route);
    const opened = parseEventLogs({
      abi: originSettlerAbi,
      eventName: 'OrderOpened',
      logs: originReceipt.logs,
    });
    expect(opened).toHaveLength(1);
    const inputAmount = DEPOSIT - FEE;
    const order = openedOrder(route, inputAmount);
    expect(opened[0]!.args.orderData).toEqual(order);
    const orderId = computeOrderId(order, BigInt(origin.chainId), origin.contracts.originSettler);
    expect(opened[0]!.args.orderId).toBe(orderId);
    expect(await origin.balanceOf(origin.tokens.usdc, feeCollector.address)).toBe(FEE);
    expect(await origin.balanceOf(origin.tokens.usdc, origin.contracts.originSettler)).toBe(inputAmount);
    expect(await origin.balanceOf(origin.tokens.usdc, route.originAccount)).toBe(0n);
    expect(await origin.balanceOf(origin.tokens.usdc, user.address)).toBe(userBefore - DEPOSIT);
    const leftover = await allowanceOf(
      origin,
      origin.tokens.usdc,
      route.originAccount,
      origin.contracts.originSettler,
    );
    expect(leftover).toBe(0n);

    // 3. The solver fills the destination account from its own inventory.
    const solverBeforeDest = await dest.balanceOf(dest.tokens.usdc, solver.address);
    await fillOrder(origin, dest, order, solver.address);
    expect(await dest.balanceOf(dest.tokens.usdc, route.destAccount)).toBe(OUTPUT);
    expect(await dest.balanceOf(dest.tokens.usdc, solver.address)).toBe(solverBeforeDest - OUTPUT);
    expect(await fillStatusOf(dest, orderId)).toBe(FillStatus.Filled);

    // 4. Anyone executes the destination intent: the transfer reaches the recipient.
    const destReceipt = await dest.send('relayer', {
      to: dest.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(route.dest),
    });
    const executed = parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: destReceipt.logs });
    expect(executed[0]?.args.callsSucceeded).toBe(true);
    expect(await dest.balanceOf(dest.tokens.usdc, recipient)).toBe(OUTPUT);
    expect(await dest.balanceOf(dest.tokens.usdc, route.destAccount)).toBe(0n);

    // 5. The attester signs the fill; settle repays the solver on the origin.
    const proof = await attestFill(origin, dest, {
      orderId,
      filler: solver.address,
      repaymentAddr: solver.address,
    });
    expect(attester.address).not.toBe(origin.accounts.relayer.address);
    const solverBeforeOrigin = await origin.balanceOf(origin.tokens.usdc, solver.address);
    await origin.send('relayer', {
      to: origin.contracts.originSettler,
      data: encodeSettle(order, solver.address, proof),
    });
    expect(await origin.balanceOf(origin.tokens.usdc, solver.address)).toBe(solverBeforeOrigin + inputAmount);
    expect(await origin.balanceOf(origin.tokens.usdc, origin.contracts.originSettler)).toBe(0n);
    expect(await orderStatusOf(origin, orderId)).toBe(OrderStatus.Settled);
  });

  it('refunds the owner on the destination when a destination call fails', async () => {
    const target = await dest.deploy('RevertingTarget');
    const failing = {
      target,
      value: 0n,
      data: encodeFunctionData({ abi: revertingTargetAbi, functionName: 'fail', args: [7n] }),
      fills: [],
    };
    const recipient = newRecipient();
    const route = await routeTo(recipient, [failing]);
    const { user, solver } = dest.accounts;
    const order = openedOrder(route, DEPOSIT - FEE);
    await fillOrder(origin, dest, order, solver.address);
    const userBefore = await dest.balanceOf(dest.tokens.usdc, user.address);

    const receipt = await dest.send('stranger', {
      to: dest.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(route.dest),
    });
    const failed = parseEventLogs({
      abi: intentAccountAbi,
      eventName: 'DestinationFailed',
      logs: receipt.logs,
    });
    expect(failed).toHaveLength(1);
    const executed = parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: receipt.logs });
    expect(executed[0]?.args.callsSucceeded).toBe(false);
    expect(await dest.balanceOf(dest.tokens.usdc, user.address)).toBe(userBefore + OUTPUT);
    expect(await dest.balanceOf(dest.tokens.usdc, route.destAccount)).toBe(0n);
    expect(await dest.balanceOf(dest.tokens.usdc, recipient)).toBe(0n);
    expect(await accountStateOf(dest, route.destAccount)).toBe(AccountState.Executed);
  });

  it('refunds an unexecuted origin deposit to the owner after the deadline, called by a stranger', async () => {
    const route = await routeTo(newRecipient());
    const { user } = origin.accounts;
    await origin.mint(origin.tokens.usdc, user.address, DEPOSIT);
    const userBefore = await origin.balanceOf(origin.tokens.usdc, user.address);
    await transferToken(origin, 'user', origin.tokens.usdc, route.originAccount, DEPOSIT);
    const refundCall = {
      address: origin.contracts.intentFactory,
      abi: intentFactoryAbi,
      functionName: 'deployIfNeededAndRefund',
      args: [route.origin, [origin.tokens.usdc], false],
    } as const;

    // Before the deadline only the owner may refund: a stranger is refused.
    const refusal = await expectRevert(
      origin.publicClient.simulateContract({ ...refundCall, account: origin.accounts.stranger }),
      'RefundNotAllowed',
    );
    expect(refusal[0]).toBe(user.address);

    await origin.increaseTime(route.origin.deadline - (await origin.now()));
    const args = await expectRevert(
      origin.publicClient.simulateContract({
        address: origin.contracts.intentFactory,
        abi: intentFactoryAbi,
        functionName: 'deployIfNeededAndExecute',
        args: [route.origin, '0x'],
        account: origin.accounts.relayer,
      }),
      'Expired',
    );
    expect(args[0]).toBe(route.origin.deadline);

    await origin.send('stranger', {
      to: origin.contracts.intentFactory,
      data: encodeDeployIfNeededAndRefund(route.origin, [origin.tokens.usdc], false),
    });
    expect(await origin.balanceOf(origin.tokens.usdc, user.address)).toBe(userBefore);
    expect(await origin.balanceOf(origin.tokens.usdc, route.originAccount)).toBe(0n);
  });
});
