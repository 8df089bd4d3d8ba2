/**
 * `switchyard deploy --plan` for one chain: which of our contracts are already there, the gas each missing one
 * needs (eth_estimateGas of its CREATE2 transaction), what that costs at the chain's current fee, and whether
 * the deployer holds it. Sends nothing.
 */
import { type Address, concat, type PublicClient } from 'viem';
import { CREATE2_DEPLOYER } from '../contracts/create2.ts';
import type { DeploymentStep, SwitchyardDeploymentPlan } from '../contracts/deployment-plan.ts';
import { findContractCodeProblem } from '../contracts/find-code-problems.ts';
import { currentFeePerGas } from './current-fee-per-gas.ts';

export interface PlannedStep {
  contract: DeploymentStep['contract'];
  address: Address;
  /** `present`: this build's code is there; `missing`: to deploy; `other-code`: an error on deploy. */
  status: 'present' | 'missing' | 'other-code';
  /** Gas of the deployment transaction, for a missing contract. */
  gas?: bigint;
}

export interface ChainDeploymentPlan {
  chainId: number;
  steps: PlannedStep[];
  /** Gas of every missing contract's transaction together. */
  gas: bigint;
  /** The fee per gas the cost is counted at: EIP-1559 maxFeePerGas, or the legacy gas price. */
  feePerGas: bigint;
  /** gas × feePerGas, in the native currency's base units: an upper bound of what the deployer pays. */
  costWei: bigint;
  deployer?: { address: Address; balanceWei: bigint };
}

export async function planChainDeployment(p: {
  publicClient: PublicClient;
  chainId: number;
  plan: SwitchyardDeploymentPlan;
  deployer?: Address | undefined;
}): Promise<ChainDeploymentPlan> {
  const { publicClient, plan, deployer } = p;
  const steps = await Promise.all(
    plan.steps.map(async (step): Promise<PlannedStep> => {
      const problem = await findContractCodeProblem(publicClient, step.contract, step.address);
      const base = { contract: step.contract, address: step.address };
      if (!problem) return { ...base, status: 'present' };
      if (problem.kind !== 'missing') return { ...base, status: 'other-code' };
      const gas = await publicClient.estimateGas({
        ...(deployer && { account: deployer }),
        to: CREATE2_DEPLOYER,
        data: concat([step.salt, step.initCode]),
      });
      return { ...base, status: 'missing', gas };
    }),
  );
  const gas = steps.reduce((sum, s) => sum + (s.gas ?? 0n), 0n);
  const feePerGas = await currentFeePerGas(publicClient);
  const balanceWei = deployer ? await publicClient.getBalance({ address: deployer }) : undefined;
  return {
    chainId: p.chainId,
    steps,
    gas,
    feePerGas,
    costWei: gas * feePerGas,
    ...(deployer && balanceWei !== undefined && { deployer: { address: deployer, balanceWei } }),
  };
}
