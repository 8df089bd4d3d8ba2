/**
 * `switchyard deploy` on one chain: connect, refuse a chain without the CREATE2 deployer, plan (what is
 * missing, its gas and cost), refuse a deployer that cannot pay, then deploy through the code the devnet uses.
 */
import { type Address, createWalletClient, formatEther, formatGwei, type LocalAccount } from 'viem';
import { ensureCreate2Deployer } from '../contracts/create2.ts';
import { type DeployStepEvent, deploySwitchyardContracts } from '../contracts/deploy.ts';
import type { SwitchyardDeploymentPlan } from '../contracts/deployment-plan.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../intents/plan/constants.ts';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import { SwitchyardError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import {
  type ConnectedChain,
  connectChain,
  OPERATOR_POLLING_INTERVAL_MS,
  redactRpcUrl,
  transportFor,
} from './connect-chain.ts';
import { type ChainDeploymentPlan, planChainDeployment } from './plan-chain-deployment.ts';

export interface ChainResult {
  chain: ConnectedChain;
  contracts: SwitchyardContracts;
  plan?: ChainDeploymentPlan;
  steps: DeployStepEvent[];
}

/** The deployer cannot pay for what the chain still lacks. */
export class DeployerShortOfFundsError extends SwitchyardError {
  override readonly name = 'DeployerShortOfFundsError';
}

export async function deployToChain(p: {
  rpcUrl: string;
  attester: Address;
  plan: SwitchyardDeploymentPlan;
  deployer: LocalAccount | undefined;
  planOnly: boolean;
  log: Logger;
}): Promise<ChainResult> {
  const chain = await connectChain(p.rpcUrl);
  const log = p.log.child({ chainId: chain.chainId });
  await ensureCreate2Deployer(chain.publicClient);
  const planned = await planChainDeployment({
    publicClient: chain.publicClient,
    chainId: chain.chainId,
    plan: p.plan,
    deployer: p.deployer?.address,
  });
  log.info('chain planned', {
    rpcUrl: redactRpcUrl(p.rpcUrl),
    missing: planned.steps.filter((s) => s.status === 'missing').map((s) => s.contract),
    gas: planned.gas,
  });
  if (p.planOnly || !p.deployer) return { chain, contracts: p.plan.contracts, plan: planned, steps: [] };
  if (planned.deployer && planned.gas > 0n && planned.deployer.balanceWei < planned.costWei) {
    throw new DeployerShortOfFundsError(
      `chain ${chain.chainId}: the deployer ${p.deployer.address} holds ${formatEther(planned.deployer.balanceWei)} ` +
        `of the native currency but deploying needs up to ${formatEther(planned.costWei)} ` +
        `(${planned.gas} gas at ${formatGwei(planned.feePerGas)} gwei); fund it and run deploy again`,
    );
  }
  const walletClient = createWalletClient({
    chain: chain.chain,
    account: p.deployer,
    transport: transportFor(p.rpcUrl),
    pollingInterval: OPERATOR_POLLING_INTERVAL_MS,
  });
  const steps: DeployStepEvent[] = [];
  const contracts = await deploySwitchyardContracts({
    publicClient: chain.publicClient,
    walletClient,
    attester: p.attester,
    graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS,
    onStep: (event) => {
      steps.push(event);
      log.info(
        event.outcome === 'deployed' ? `deployed ${event.contract}` : `${event.contract} already deployed`,
        {
          address: event.address,
          transactionHash: event.transactionHash,
        },
      );
    },
  });
  return { chain, contracts, steps };
}
