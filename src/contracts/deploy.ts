/**
 * Deploys Switchyard's contracts (verifier, settlers, factory + implementation) through the CREATE2 deployer
 * with fixed salts, so they sit at the same addresses on every chain that uses the same attester and grace.
 * `switchyard deploy`, the devnet and the tests all deploy here. Idempotent: a contract already at its address
 * is not sent again, but its runtime code is checked against this build; other code there is an error naming
 * the contract and the chain.
 */
import type { Address, Hex, PublicClient } from 'viem';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import { SwitchyardError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import { type DeployWalletClient, deployCreate2, ensureCreate2Deployer } from './create2.ts';
import { type DeploymentInputs, type DeploymentStep, planSwitchyardDeployment } from './deployment-plan.ts';
import { type CodeProblem, findCodeProblems, findContractCodeProblem } from './find-code-problems.ts';

export interface DeploySwitchyardOptions extends DeploymentInputs {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  log?: Pick<Logger, 'info'>;
  /** Told about each contract once it is found in place or deployed (the deploy command's progress). */
  onStep?: (event: DeployStepEvent) => void;
}

export interface DeployStepEvent {
  contract: DeploymentStep['contract'];
  address: Address;
  outcome: 'deployed' | 'present';
  transactionHash?: Hex;
}

/** A chain holds something else than this build at one of our addresses. */
export class DeployedCodeMismatchError extends SwitchyardError {
  override readonly name = 'DeployedCodeMismatchError';
  constructor(chainId: number, problem: CodeProblem) {
    super(
      `chain ${chainId}: ${problem.contract} at ${problem.address} ${problem.problem}; ` +
        'nothing was sent over it (a CREATE2 address holds one code for ever): check that this is the ' +
        'Switchyard version and attester you meant, or that the chain runs a standard EVM',
      { details: { chainId, ...problem } },
    );
  }
}

export async function deploySwitchyardContracts(
  options: DeploySwitchyardOptions,
): Promise<SwitchyardContracts> {
  const { publicClient, walletClient, log } = options;
  const plan = planSwitchyardDeployment(options);
  await ensureCreate2Deployer(publicClient);
  const chainId = publicClient.chain?.id ?? (await publicClient.getChainId());
  for (const step of plan.steps) {
    const event = await deployStep(publicClient, walletClient, chainId, step);
    log?.info(
      event.outcome === 'deployed' ? `deployed ${step.artifact}` : `${step.artifact} already deployed`,
      {
        address: step.address,
      },
    );
    options.onStep?.(event);
  }
  const [problem] = await findCodeProblems(publicClient, plan.contracts);
  if (problem) throw new DeployedCodeMismatchError(chainId, problem);
  return plan.contracts;
}

async function deployStep(
  publicClient: PublicClient,
  walletClient: DeployWalletClient,
  chainId: number,
  step: DeploymentStep,
): Promise<DeployStepEvent> {
  const found = await findContractCodeProblem(publicClient, step.contract, step.address);
  const base = { contract: step.contract, address: step.address };
  if (!found) return { ...base, outcome: 'present' };
  if (found.kind !== 'missing') throw new DeployedCodeMismatchError(chainId, found);
  const { transactionHash } = await deployCreate2({
    publicClient,
    walletClient,
    salt: step.salt,
    initCode: step.initCode,
  });
  return { ...base, outcome: 'deployed', ...(transactionHash && { transactionHash }) };
}
