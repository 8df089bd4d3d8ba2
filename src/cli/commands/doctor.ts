/**
 * `switchyard doctor --config FILE [--json] [--head-wait SECONDS]`: checks everything an operator can get
 * wrong (src/operator/checks) with the keys from the environment, one line per check (ok, WARN or FAIL, with
 * a fix under each warning and failure). Exits 1 when any check fails. `serve` runs the same checks at start.
 */
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../api/resolve-config.ts';
import { createLogger } from '../../internal/logger.ts';
import { HEAD_ADVANCE_WAIT_MS } from '../../operator/checks/constants.ts';
import { formatChecks } from '../../operator/checks/format-checks.ts';
import { runOperatorChecks } from '../../operator/checks/run-operator-checks.ts';

const USAGE = `usage: switchyard doctor --config FILE [--json] [--head-wait SECONDS]

Checks, with the keys from the environment (SWITCHYARD_RELAYER_KEY, SWITCHYARD_SOLVER_KEY,
SWITCHYARD_ATTESTER_KEY, SWITCHYARD_FEE_COLLECTOR) and the database of DATABASE_URL or the data dir:
  keys, fee collector, database reachable and migrated, and for each chain: the RPC answers with the
  configured chain id and its head advances; our contracts hold this build's code; the attester key is
  the fill verifier's; the relayer's and the solver's gas (as intents they pay for); the solver's
  inventory of each token and its allowance to the DestinationSettler.

  --config FILE        the serve config
  --json               print the results as JSON
  --head-wait SECONDS  how long a chain's head may stand still (default ${HEAD_ADVANCE_WAIT_MS / 1000})

Exits 1 when a check fails, 0 otherwise (warnings included).
`;

export async function run(argv: string[]): Promise<number> {
  let values: { config?: string; json?: boolean; 'head-wait'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        json: { type: 'boolean' },
        'head-wait': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!values.config) return usageError('--config FILE is required');
  const headWait = values['head-wait'] === undefined ? undefined : Number(values['head-wait']);
  if (headWait !== undefined && !(Number.isFinite(headWait) && headWait > 0)) {
    return usageError(`--head-wait must be a positive number of seconds, not '${values['head-wait']}'`);
  }
  const config = resolveConfig({ configPath: values.config, env: process.env, flags: {} });
  // Progress on stderr: a chain's head may take up to the head wait to move.
  createLogger().info('running checks', { chains: config.chains.map((c) => c.chainId) });
  const results = await runOperatorChecks({
    config,
    env: process.env,
    headWaitMs: headWait === undefined ? undefined : headWait * 1000,
  });
  process.stdout.write(
    values.json ? `${JSON.stringify({ checks: results }, null, 2)}\n` : formatChecks(results),
  );
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}

function usageError(message: string): number {
  process.stderr.write(`switchyard doctor: ${message}\n\n${USAGE}`);
  return 2;
}
