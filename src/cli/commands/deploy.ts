/**
 * `switchyard deploy --rpc-url URL [--rpc-url URL …] [--plan] [--json]`: Switchyard's contracts on each chain
 * through the CREATE2 deployer, at the same addresses everywhere (src/contracts/deploy.ts, which the devnet
 * uses too). A second run sends nothing and checks the code already there. `--plan` sends nothing: it prints
 * the addresses, what is missing and the gas and cost of deploying it.
 */
import { parseArgs } from 'node:util';
import type { LocalAccount } from 'viem';
import { planSwitchyardDeployment } from '../../contracts/deployment-plan.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../intents/plan/constants.ts';
import { SwitchyardError } from '../../internal/errors.ts';
import { createLogger } from '../../internal/logger.ts';
import { redactRpcUrl, shortReason } from '../../operator/connect-chain.ts';
import { attesterFromEnv, deployerFromEnv } from '../../operator/deploy-keys-from-env.ts';
import { deployToChain } from '../../operator/deploy-to-chain.ts';
import { deploymentJson, deploymentText } from '../format-deployment.ts';

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
  process.stdout.write(options.json ? deploymentJson(results) : deploymentText(results, plan, attester));
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
