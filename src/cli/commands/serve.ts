/**
 * `switchyard serve --config <file>`: the HTTP API against configured chains (production). The
 * store is PostgreSQL when DATABASE_URL (or `databaseUrl` in the file) is set, else SQLite in the
 * data dir. Stops cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../api/resolve-config.ts';
import { startSwitchyard } from '../../app/start-switchyard.ts';
import { operatorFromEnv } from '../../intents/operator-from-env.ts';
import { createLogger } from '../../internal/logger.ts';
import { createShutdown } from '../../internal/shutdown.ts';

const USAGE = `usage: switchyard serve --config FILE [--host HOST] [--port PORT] [--role api|worker|all]

FILE is JSON: { "host"?, "port"?, "dataDir"?, "databaseUrl"?, "role"?, "chains": [ { "chainId",
"name", "rpcUrls": [...], "explorerUrl"?, "nativeCurrency": {name,symbol,decimals}, "tokens": [...],
"contracts": { NAME: address } } ], "prices"?: { "<chainId>:<address>": usd },
"webhooks"?: { "allowPrivateTargets"?: boolean } }. Precedence: defaults < HOST/PORT/SWITCHYARD_DATA_DIR/DATABASE_URL
< file < flags. Secrets (relayer, attester keys) come from the environment only.
`;

export async function run(argv: string[]): Promise<number> {
  let values: { config?: string; host?: string; port?: string; role?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`switchyard serve: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!values.config) {
    process.stderr.write(`switchyard serve: --config FILE is required\n\n${USAGE}`);
    return 2;
  }
  const config = resolveConfig({
    configPath: values.config,
    env: process.env,
    flags: { host: values.host, port: values.port, role: values.role },
  });
  const log = createLogger();
  const shutdown = createShutdown((name, error) => log.error('shutdown step failed', { name, error }));
  const { url } = await startSwitchyard({ config, operator: operatorFromEnv(process.env), log, shutdown });
  process.stdout.write(`Switchyard API on ${url}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await shutdown.shutdown();
  return 0;
}
