/**
 * Builds a plan, runs it by hand (run-plan.ts) and checks what every route must satisfy: the recipient got at
 * least `toAmountMin`, the fee collector exactly the committed fee, the user at most the deposit (an extra
 * deposit came back), the solver repaid the locked amount, the gas estimate covered the gas used on each
 * chain, and no account kept anything. `PLAN_GAS_REPORT=1` prints used against estimated gas.
 */
import { type Address, zeroAddress } from 'viem';
import { expect } from 'vitest';
import { buildExecutionPlan } from '../../../../src/intents/plan/build-execution-plan.ts';
import type { ExecutionPlan, PlanDeps, PlanRequest } from '../../../../src/intents/plan/types.ts';
import type { TestDevnet } from '../../../harness/devnet.ts';
import { balanceOf, leftovers } from './balances.ts';
import { chainOf, type PlanRun, runPlan } from './run-plan.ts';

/** Sent on top of every deposit (1 USDC, or 1 of an 18-decimal token): the origin account must return it at once. */
const EXTRA_DEPOSIT_WHOLE = 1n;

export interface Outcome {
  plan: ExecutionPlan;
  run: PlanRun;
  received: bigint;
}

export async function buildAndRunPlan(
  net: TestDevnet,
  deps: PlanDeps,
  req: PlanRequest,
  recipient: Address,
  /** Runs between quote and execution: checks against the chain as the quote saw it. */
  beforeRun?: (plan: ExecutionPlan) => Promise<void>,
): Promise<Outcome> {
  const plan = await buildExecutionPlan(req, deps);
  await beforeRun?.(plan);
  const origin = chainOf(net, req.originChainId);
  const dest = chainOf(net, req.destinationChainId);
  const feeCollector = deps.operator.feeCollector;
  const solver = deps.operator.solver;
  const originToken = req.originTokenAddress;
  const nativeIn = originToken === zeroAddress;
  const decimals = origin.entry.tokens.USDC === originToken ? 6n : 18n;
  const extra = nativeIn ? 0n : EXTRA_DEPOSIT_WHOLE * 10n ** decimals;
  const bridgedIn = plan.order?.inputToken;
  const before = {
    recipient: await balanceOf(dest, req.destinationTokenAddress, recipient),
    collector: await balanceOf(origin, originToken, feeCollector),
    user: await balanceOf(origin, originToken, req.ownerAddress),
    solver: bridgedIn ? await balanceOf(origin, bridgedIn, solver) : 0n,
  };
  const run = await runPlan(net, plan, extra);
  expect(run.originSucceeded).toBe(true);
  if (plan.destination) expect(run.destinationSucceeded).toBe(true);

  const received = (await balanceOf(dest, req.destinationTokenAddress, recipient)) - before.recipient;
  expect(received).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
  // The fee collector got exactly the committed gas + service fee, in the origin token.
  expect((await balanceOf(origin, originToken, feeCollector)) - before.collector).toBe(
    plan.fees.collectorFee,
  );
  // The user paid at most the committed deposit: the extra deposit (and any unspent maximum) came back.
  if (!nativeIn) {
    const spent = before.user - (await balanceOf(origin, originToken, req.ownerAddress));
    expect(spent).toBeLessThanOrEqual(plan.amounts.depositAmount);
    expect(spent).toBeGreaterThan(0n);
  }
  if (plan.order && bridgedIn) {
    // The solver was repaid the locked amount on the origin chain.
    expect(run.order!.inputAmount).toBe(plan.order.inputAmount);
    expect((await balanceOf(origin, bridgedIn, solver)) - before.solver).toBe(plan.order.inputAmount);
  }
  // The gas the fee charges for covers what the operator's transactions really used on each chain.
  const originGas = run.origin.gasUsed + (run.settle?.gasUsed ?? 0n);
  expect(originGas).toBeLessThanOrEqual(plan.fees.originGas.gasLimit);
  if (plan.fees.destinationGas) {
    const destGas = run.fill!.gasUsed + run.destination!.gasUsed;
    expect(destGas).toBeLessThanOrEqual(plan.fees.destinationGas.gasLimit);
  }
  if (process.env.PLAN_GAS_REPORT) {
    console.log(plan.routeProviders.join('+') || 'transfer', {
      originGas,
      estimate: plan.fees.originGas.gasLimit,
      dest: plan.fees.destinationGas
        ? [run.fill!.gasUsed + run.destination!.gasUsed, plan.fees.destinationGas.gasLimit]
        : undefined,
    });
  }
  expect(await leftovers(origin, plan.origin.address)).toEqual({});
  if (plan.destination) expect(await leftovers(dest, plan.destination.address)).toEqual({});
  return { plan, run, received };
}
