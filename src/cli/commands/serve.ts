/**
 * `switchyard serve --config <file>`: the HTTP API against configured chains (production). The
 * store is PostgreSQL when DATABASE_URL (or `databaseUrl` in the file) is set, else SQLite in the
 * data dir. Before starting it runs the checks of `switchyard doctor` and refuses to start when one fails,
 * unless --skip-checks. Stops cleanly on SIGINT/SIGTERM: the API answers what it holds and closes, the
 * engine waits a bounded time for its running steps and hands the rest to other workers
 * (docs/operations.md, "Stopping"); a second signal exits at once.
 */
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../api/resolve-config.ts';
import { startSwitchyard } from '../../app/start-switchyard.ts';
import { operatorFromEnv } from '../../intents/operator-from-env.ts';
import { createLogger, type Logger } from '../../internal/logger.ts';
import { createShutdown } from '../../internal/shutdown.ts';
import { runOperatorChecks } from '../../operator/checks/run-operator-checks.ts';

/**
 * After a clean shutdown, what is left in the event loop (a step handed back to another worker, still
 * waiting for its receipt) must not keep the process alive: it exits this long after (ms) if it has not.
 */
const EXIT_AFTER_SHUTDOWN_MS = 1_000;
/** Exit status of a process a second signal ended during its shutdown (128 + SIGTERM's 15). */
const EXIT_INTERRUPTED = 143;

const USAGE = `usage: switchyard serve --config FILE [--host HOST] [--port PORT] [--role api|worker|all] [--skip-checks]

FILE is JSON: { "host"?, "port"?, "dataDir"?, "databaseUrl"?, "role"?, "chains": [ { "chainId",
"name", "rpcUrls": [...], "explorerUrl"?, "nativeCurrency": {name,symbol,decimals}, "tokens": [...],
"contracts": { NAME: address } } ], "prices"?: { "<chainId>:<address>": usd },
"metrics"?: { "host"?, "port"? } | false,
"webhooks"?: { "allowPrivateTargets"?: boolean } }. Precedence: defaults < HOST/PORT/SWITCHYARD_DATA_DIR/DATABASE_URL/
METRICS_HOST/METRICS_PORT < file < flags. Prometheus metrics: GET /metrics on 127.0.0.1:9464 unless
"metrics" says otherwise. Secrets (relayer, attester keys, WEBHOOK_SECRETS_KEY: 64 hex characters that
encrypt webhook signing secrets at rest, and WEBHOOK_SECRETS_PREVIOUS_KEY, the key being replaced, read
with too during a rotation) come from the environment only.

Before it starts, serve runs the checks of 'switchyard doctor' and logs each one; a failed check stops it
(exit 1) unless --skip-checks is given. It prints 'Switchyard API on URL' when the API listens (roles api
and all), 'Switchyard worker running' for --role worker. SIGTERM or SIGINT stops it cleanly (the engine
waits up to 10 s for its running steps, then hands the rest to other workers); a second signal exits at once.
`;

export async function run(argv: string[]): Promise<number> {
  let values: {
    config?: string;
    host?: string;
    port?: string;
    role?: string;
    'skip-checks'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        role: { type: 'string' },
        'skip-checks': { type: 'boolean' },
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
  if (values['skip-checks']) log.warn('start-up checks skipped (--skip-checks)');
  else if (!(await checksPass(config, log))) return 1;
  const shutdown = createShutdown((name, error) => log.error('shutdown step failed', { name, error }));
  const { url, metricsUrl } = await startSwitchyard({
    config,
    operator: operatorFromEnv(process.env),
    log,
    shutdown,
  });
  // Listening for the signals before the ready line: a supervisor may signal the moment it reads it.
  const stopSignal = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  process.stdout.write(url ? `Switchyard API on ${url}\n` : 'Switchyard worker running\n');
  if (metricsUrl) process.stdout.write(`Prometheus metrics on ${metricsUrl}\n`);
  const signal = await stopSignal;
  log.info('stopping', { signal, role: config.role });
  const again = () => {
    log.warn('second signal during shutdown: exiting now');
    process.exit(EXIT_INTERRUPTED);
  };
  process.once('SIGINT', again);
  process.once('SIGTERM', again);
  await shutdown.shutdown();
  log.info('stopped');
  setTimeout(() => process.exit(), EXIT_AFTER_SHUTDOWN_MS).unref();
  return 0;
}

/** The doctor's checks, one log line each; false when one failed (the reason is on stderr). */
async function checksPass(config: Parameters<typeof runOperatorChecks>[0]['config'], log: Logger) {
  const results = await runOperatorChecks({ config, env: process.env });
  for (const r of results) {
    const level = r.status === 'ok' ? 'info' : r.status === 'warn' ? 'warn' : 'error';
    log[level](`check ${r.check}: ${r.message}`, {
      ...(r.chainId !== undefined && { chainId: r.chainId }),
      ...(r.fix && { fix: r.fix }),
    });
  }
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length === 0) return true;
  process.stderr.write(
    `switchyard serve: ${failed.length} start-up check(s) failed: ${failed.map((r) => r.message).join('; ')}. ` +
      'Fix them (switchyard doctor --config FILE shows each with its fix), or start anyway with --skip-checks\n',
  );
  return false;
}
