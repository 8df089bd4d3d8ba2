/**
 * The relayer's and the solver's native balance on a chain, as the number of intents (fills) it pays for at
 * the chain's current fee: none is a fail, fewer than LOW_GAS_INTENTS a warning.
 */
import { type Address, formatUnits } from 'viem';
import { LOW_GAS_INTENTS, RELAYER_GAS_PER_INTENT, SOLVER_GAS_PER_FILL } from './constants.ts';
import { type ChainCheckContext, type CheckName, type CheckResult, ok, problem } from './types.ts';

export async function checkRelayerGas(
  ctx: ChainCheckContext,
  feePerGas: bigint,
): Promise<CheckResult | undefined> {
  if (!ctx.operator) return undefined;
  return gasCheck(ctx, feePerGas, {
    check: 'relayer-gas',
    who: 'relayer',
    address: ctx.operator.relayer.address,
    gasEach: RELAYER_GAS_PER_INTENT,
    unit: 'intents',
  });
}

export async function checkSolverGas(
  ctx: ChainCheckContext,
  feePerGas: bigint,
): Promise<CheckResult | undefined> {
  if (!ctx.operator) return undefined;
  return gasCheck(ctx, feePerGas, {
    check: 'solver-gas',
    who: 'solver',
    address: ctx.operator.solver.address,
    gasEach: SOLVER_GAS_PER_FILL,
    unit: 'fills',
  });
}

async function gasCheck(
  ctx: ChainCheckContext,
  feePerGas: bigint,
  p: { check: CheckName; who: string; address: Address; gasEach: bigint; unit: string },
): Promise<CheckResult> {
  const { chainId, nativeCurrency } = ctx.chain;
  const balance = await ctx.client.getBalance({ address: p.address });
  const costEach = p.gasEach * (feePerGas > 0n ? feePerGas : 1n);
  const covers = balance / costEach;
  const held = `${formatUnits(balance, nativeCurrency.decimals)} ${nativeCurrency.symbol}`;
  const message = `the ${p.who} ${p.address} holds ${held}: gas for about ${covers} ${p.unit} at the current fee`;
  const fix = `send ${nativeCurrency.symbol} to the ${p.who} ${p.address} on chain ${chainId}`;
  if (covers === 0n) return problem('fail', p.check, message, fix, chainId);
  if (covers < LOW_GAS_INTENTS) return problem('warn', p.check, message, fix, chainId);
  return ok(p.check, message, chainId);
}
