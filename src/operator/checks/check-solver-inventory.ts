/**
 * What the solver can fill on a chain: its balance of each bridgeable token listed there (a token it holds
 * none of cannot be delivered on this chain), and its allowance to the DestinationSettler (none yet is fine:
 * the engine approves before the first fill of a token).
 */
import { type Address, erc20Abi, formatUnits, maxUint256, zeroAddress } from 'viem';
import type { TokenConfig } from '../../internal/config-types.ts';
import { type ChainCheckContext, type CheckResult, ok, problem } from './types.ts';

export async function checkSolverInventory(ctx: ChainCheckContext): Promise<CheckResult[]> {
  if (!ctx.operator) return [];
  const tokens = ctx.chain.tokens.filter((t) => t.address !== zeroAddress && t.supportsBridging !== false);
  return Promise.all(tokens.map((token) => checkToken(ctx, token, ctx.operator!.solver.address)));
}

async function checkToken(ctx: ChainCheckContext, token: TokenConfig, solver: Address): Promise<CheckResult> {
  const { chainId, contracts } = ctx.chain;
  const [balance, allowance] = await Promise.all([
    ctx.client.readContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [solver],
    }),
    ctx.client.readContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [solver, contracts.destinationSettler],
    }),
  ]);
  if (balance === 0n) {
    return problem(
      'fail',
      'solver-inventory',
      `the solver ${solver} holds no ${token.symbol} (${token.address}) on chain ${chainId}: nothing can be delivered in it here`,
      `send ${token.symbol} to the solver ${solver} on chain ${chainId}, or remove ${token.symbol} from the chain's tokens`,
      chainId,
    );
  }
  const held = `${formatUnits(balance, token.decimals)} ${token.symbol}`;
  return ok('solver-inventory', `the solver holds ${held}; ${describeAllowance(allowance, token)}`, chainId);
}

function describeAllowance(allowance: bigint, token: TokenConfig): string {
  if (allowance === 0n) return 'no allowance to the DestinationSettler yet (the first fill approves it)';
  if (allowance === maxUint256) return 'unlimited allowance to the DestinationSettler';
  return `allowance to the DestinationSettler ${formatUnits(allowance, token.decimals)} ${token.symbol}`;
}
