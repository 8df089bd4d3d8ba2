/**
 * `switchyard deploy --rpc-url URL [--rpc-url URL …] [--plan] [--json]`: Switchyard's contracts on each chain
 * through the CREATE2 deployer, at the same addresses everywhere (src/contracts/deploy.ts, which the devnet
 * uses too). A second run sends nothing and checks the code already there. `--plan` sends nothing: it prints
 * the addresses, what is missing and the gas and cost of deploying it.
 */
import { parseArgs } from 'node:util';
import { type Address, createWalletClient, formatEther, formatGwei, type LocalAccount } from 'viem';
import { ensureCreate2Deployer } from '../../contracts/create2.ts';
import { type DeployStepEvent, deploySwitchyardContracts } from '../../contracts/deploy.ts';
import { planSwitchyardDeployment, type SwitchyardDeploymentPlan } from '../../contracts/deployment-plan.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../intents/plan/constants.ts';
import type { SwitchyardContracts } from '../../internal/config-types.ts';
import { SwitchyardError } from '../../internal/errors.ts';
import { createLogger, type Logger } from '../../internal/logger.ts';
import {
  type ConnectedChain,
  connectChain,
  OPERATOR_POLLING_INTERVAL_MS,
  redactRpcUrl,
  shortReason,
  transportFor,
} from '../../operator/connect-chain.ts';
import { attesterFromEnv, deployerFromEnv } from '../../operator/deploy-keys-from-env.ts';
import { type ChainDeploymentPlan, planChainDeployment } from '../../operator/plan-chain-deployment.ts';
import { formatTable } from '../format-table.ts';

const USAGE = `usage: switchyard deploy --rpc-url URL [--rpc-url URL …] [--plan] [--json]

Deploys Switchyard's contracts (IntentFactory and its IntentAccount implementation, OriginSettler,
DestinationSettler, AttestedFillVerifier) to every chain through the CREATE2 deployer
0x4e59b44847b379578588920ca78fbf26c0b4956c: the same attester gives the same addresses on every chain.
Contracts already deployed are not sent again; their code is checked against this build.

  --rpc-url URL  a chain to deploy to (repeat for each chain)
  --plan         send nothing: print the addresses, what each chain lacks, its gas and cost
  --json         print { "chains": [ { "chainId", "contracts": { … } } ] } instead of tables

Environment: SWITCHYARD_DEPLOYER_KEY (pays for the deployment; not needed with --plan) and
SWITCHYARD_ATTESTER_ADDRESS or SWITCHYARD_ATTESTER_KEY (the attester is built into the fill verifier).
Progress goes to stderr as log lines; the result to stdout. Exits 1 if any chain failed.
`;

interface Options {
  rpcUrls: string[];
  plan: boolean;
  json: boolean;
}

interface ChainResult {
  chain: ConnectedChain;
  contracts: SwitchyardContracts;
  plan?: ChainDeploymentPlan;
  steps: DeployStepEvent[];
}

export async function run(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === 'number') return options;
  const log = createLogger();
  const attester = attesterFromEnv(process.env);
  const deployer = options.plan ? optionalDeployer() : deployerFromEnv(process.env);
  const plan = planSwitchyardDeployment({ attester, graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS });
  log.info(options.plan ? 'planning deployment' : 'deploying', {
    chains: options.rpcUrls.length,
    attester,
    deployer: deployer?.address,
  });
  const settled = await Promise.allSettled(
    options.rpcUrls.map((rpcUrl) =>
      deployToChain({ rpcUrl, attester, plan, deployer, planOnly: options.plan, log }),
    ),
  );
  const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [[options.rpcUrls[i]!, s.reason] as const] : [],
  );
  for (const [rpcUrl, error] of failures) {
    const message = error instanceof SwitchyardError ? error.message : shortReason(error);
    log.error('chain failed', { rpcUrl: redactRpcUrl(rpcUrl), error: message });
    process.stderr.write(`switchyard deploy: ${redactRpcUrl(rpcUrl)}: ${message}\n`);
  }
  if (failures.length > 0) return 1;
  process.stdout.write(options.json ? toJson(results) : toText(results, plan, attester));
  return 0;
}

function parse(argv: string[]): Options | number {
  let values: { 'rpc-url'?: string[]; plan?: boolean; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'rpc-url': { type: 'string', multiple: true },
        plan: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`switchyard deploy: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const rpcUrls = values['rpc-url'] ?? [];
  if (rpcUrls.length === 0) {
    process.stderr.write(`switchyard deploy: --rpc-url URL is required (once per chain)\n\n${USAGE}`);
    return 2;
  }
  return { rpcUrls, plan: values.plan ?? false, json: values.json ?? false };
}

/** A plan shows the deployer's balance when its key is set; it is not needed to plan. */
function optionalDeployer(): LocalAccount | undefined {
  return process.env.SWITCHYARD_DEPLOYER_KEY ? deployerFromEnv(process.env) : undefined;
}

/** The deployer cannot pay for what the chain still lacks. */
export class DeployerShortOfFundsError extends SwitchyardError {
  override readonly name = 'DeployerShortOfFundsError';
}

async function deployToChain(p: {
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

const CONTRACT_ORDER: (keyof SwitchyardContracts)[] = [
  'intentFactory',
  'intentAccountImplementation',
  'originSettler',
  'destinationSettler',
  'fillVerifier',
];

function toJson(results: ChainResult[]): string {
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

function toText(results: ChainResult[], plan: SwitchyardDeploymentPlan, attester: Address): string {
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
