/** What `switchyard deploy` prints: the JSON of --json, or the addresses and a table per chain. */
import { type Address, formatEther, formatGwei } from 'viem';
import type { SwitchyardDeploymentPlan } from '../contracts/deployment-plan.ts';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import { redactRpcUrl } from '../operator/connect-chain.ts';
import type { ChainResult } from '../operator/deploy-to-chain.ts';
import type { ChainDeploymentPlan } from '../operator/plan-chain-deployment.ts';
import { formatTable } from './format-table.ts';

const CONTRACT_ORDER: (keyof SwitchyardContracts)[] = [
  'intentFactory',
  'intentAccountImplementation',
  'originSettler',
  'destinationSettler',
  'fillVerifier',
];

export function deploymentJson(results: ChainResult[]): string {
  const chains = results.map((r) => ({
    chainId: r.chain.chainId,
    contracts: Object.fromEntries(CONTRACT_ORDER.map((name) => [name, r.contracts[name]])),
    ...(r.plan && {
      plan: {
        steps: r.plan.steps.map((s) => ({ ...s, ...(s.gas !== undefined && { gas: s.gas.toString() }) })),
        gas: r.plan.gas.toString(),
        feePerGasWei: r.plan.feePerGas.toString(),
        costWei: r.plan.costWei.toString(),
        ...(r.plan.deployer && {
          deployer: { address: r.plan.deployer.address, balanceWei: r.plan.deployer.balanceWei.toString() },
        }),
      },
    }),
    ...(r.steps.length > 0 && {
      deployed: r.steps.filter((s) => s.outcome === 'deployed').map((s) => s.contract),
    }),
  }));
  return `${JSON.stringify({ chains }, null, 2)}\n`;
}

export function deploymentText(
  results: ChainResult[],
  plan: SwitchyardDeploymentPlan,
  attester: Address,
): string {
  const lines = [
    `Switchyard contracts for attester ${attester}, the same on every chain:`,
    formatTable(CONTRACT_ORDER.map((name) => [name, plan.contracts[name]])),
  ];
  for (const r of results) lines.push('', ...(r.plan ? planLines(r, r.plan) : deployLines(r)));
  return `${lines.join('\n')}\n`;
}

function planLines(r: ChainResult, plan: ChainDeploymentPlan): string[] {
  const missing = plan.steps.filter((s) => s.status === 'missing').length;
  const cost = `${plan.gas} gas, at most ${formatEther(plan.costWei)} native at ${formatGwei(plan.feePerGas)} gwei`;
  const funds = plan.deployer
    ? `; deployer ${plan.deployer.address} holds ${formatEther(plan.deployer.balanceWei)}` +
      (plan.deployer.balanceWei >= plan.costWei ? ' (enough)' : ' (NOT enough)')
    : '';
  return [
    `chain ${r.chain.chainId} (${redactRpcUrl(r.chain.rpcUrl)}): ${missing} to deploy, ${cost}${funds}`,
    formatTable(
      plan.steps.map((s) => [
        s.contract,
        s.status === 'missing'
          ? 'to deploy'
          : s.status === 'present'
            ? 'already deployed'
            : 'OTHER CODE (deploy fails)',
        s.gas !== undefined ? `${s.gas} gas` : '',
      ]),
    ),
  ];
}

function deployLines(r: ChainResult): string[] {
  const deployed = r.steps.filter((s) => s.outcome === 'deployed').length;
  return [
    `chain ${r.chain.chainId} (${redactRpcUrl(r.chain.rpcUrl)}): ${deployed} deployed, ${r.steps.length - deployed} already deployed`,
    formatTable(
      r.steps.map((s) => [
        s.contract,
        s.outcome === 'deployed' ? 'deployed' : 'already deployed',
        s.transactionHash ? `tx ${s.transactionHash}` : '',
      ]),
    ),
  ];
}
