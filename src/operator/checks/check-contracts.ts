/**
 * Our contracts at the configured addresses: this build's code (src/contracts/find-code-problems.ts), linked
 * to each other, and an OriginSettler whose refund grace is the one the service plans intents with.
 */
import { originSettlerAbi } from '../../contracts/abis.generated.ts';
import { findCodeProblems } from '../../contracts/find-code-problems.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../intents/plan/constants.ts';
import type { SwitchyardContracts } from '../../internal/config-types.ts';
import { type ChainCheckContext, type CheckResult, ok, problem } from './types.ts';

const NAMES: (keyof SwitchyardContracts)[] = [
  'intentFactory',
  'intentAccountImplementation',
  'originSettler',
  'destinationSettler',
  'fillVerifier',
];

export async function checkContracts(ctx: ChainCheckContext): Promise<CheckResult> {
  const { chainId, contracts } = ctx.chain;
  const unset = NAMES.filter((name) => !contracts[name]);
  if (unset.length > 0) {
    return problem(
      'fail',
      'contracts',
      `contracts.${unset.join(', contracts.')} not set in the config`,
      'run switchyard config init again, or copy the addresses switchyard deploy printed',
      chainId,
    );
  }
  const [first, ...more] = await findCodeProblems(ctx.client, contracts);
  if (first) {
    return problem(
      'fail',
      'contracts',
      `${first.contract} at ${first.address} ${first.problem}${more.length ? ` (and ${more.length} more)` : ''}`,
      first.kind === 'missing'
        ? `run switchyard deploy --rpc-url <chain ${chainId}'s RPC>, or correct contracts.${first.contract}`
        : `correct contracts.${first.contract} to the address switchyard deploy printed for this version`,
      chainId,
    );
  }
  const grace = await ctx.client.readContract({
    address: contracts.originSettler,
    abi: originSettlerAbi,
    functionName: 'grace',
  });
  if (grace !== DEFAULT_SETTLEMENT_GRACE_SECONDS) {
    return problem(
      'fail',
      'contracts',
      `the OriginSettler's refund grace is ${grace} s, but the service plans intents with ${DEFAULT_SETTLEMENT_GRACE_SECONDS} s`,
      'use the contracts switchyard deploy puts on the chain',
      chainId,
    );
  }
  return ok(
    'contracts',
    `this build's code at all ${NAMES.length} addresses (refund grace ${grace} s)`,
    chainId,
  );
}
