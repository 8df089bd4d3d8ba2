/** The attester key signs what the chain's fill verifier accepts: its address is the verifier's attester. */
import { isAddressEqual } from 'viem';
import { attestedFillVerifierAbi } from '../../contracts/abis.generated.ts';
import { type ChainCheckContext, type CheckResult, ok, problem } from './types.ts';

export async function checkAttester(ctx: ChainCheckContext): Promise<CheckResult | undefined> {
  if (!ctx.operator) return undefined;
  const { chainId, contracts } = ctx.chain;
  const onChain = await ctx.client.readContract({
    address: contracts.fillVerifier,
    abi: attestedFillVerifierAbi,
    functionName: 'attester',
  });
  const mine = ctx.operator.attester.address;
  if (isAddressEqual(onChain, mine))
    return ok('attester', `the fill verifier's attester is ${mine}`, chainId);
  return problem(
    'fail',
    'attester',
    `SWITCHYARD_ATTESTER_KEY is ${mine}, but the fill verifier accepts ${onChain}: every fill would go unpaid`,
    `set SWITCHYARD_ATTESTER_KEY to ${onChain}'s key, or deploy for ${mine} and use those contracts`,
    chainId,
  );
}
