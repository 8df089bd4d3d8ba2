/**
 * `switchyard start` (what `npm start` runs): the devnet, then the API and the execution engine on the
 * embedded default (SQLite in the data dir, or PostgreSQL when DATABASE_URL is set), operated by the
 * devnet's accounts. Prints the chains, the API URL and an access key, which it also writes into
 * devnet.json.
 */
import { DEFAULT_HOST, DEFAULT_PORT } from '../../api/resolve-config.ts';
import { devnetOperator } from '../../app/devnet-operator.ts';
import { ensureDevnetAccessKey } from '../../app/ensure-devnet-access-key.ts';
import { startSwitchyard } from '../../app/start-switchyard.ts';
import { parseDevnetArgs } from '../../devnet/cli-options.ts';
import { formatDevnetSummary } from '../../devnet/format-summary.ts';
import { startDevnet } from '../../devnet/start-devnet.ts';
import { listenForStopSignals, waitForStop } from '../../devnet/wait-for-stop.ts';
import { EXPLORER_PATH } from '../../explorer/constants.ts';
import { ConfigError } from '../../internal/errors.ts';
import { createLogger } from '../../internal/logger.ts';
import { createShutdown } from '../../internal/shutdown.ts';
import { resolveMetricsListen } from '../../metrics/resolve-metrics-listen.ts';
import { resolveWebhookSecretsKeys } from '../../webhooks/resolve-secrets-key.ts';

export async function run(argv: string[]): Promise<number> {
  const parsed = parseDevnetArgs('start', argv, process.env);
  if ('help' in parsed) {
    process.stdout.write(parsed.help);
    return 0;
  }
  const host = process.env.HOST ?? DEFAULT_HOST;
  const port = parsePort(process.env.PORT);
  // Before the devnet starts: a malformed key is refused at once, not after the chains are up.
  const { key: webhookSecretsKey, previousKey: webhookSecretsPreviousKey } = resolveWebhookSecretsKeys(
    process.env,
  );
  const log = createLogger();
  const shutdown = createShutdown((name, error) => log.error('shutdown step failed', { name, error }));
  const signals = listenForStopSignals();
  try {
    const devnet = await startDevnet({
      ...parsed.options,
      apiUrl: `http://${host}:${port}`,
      log: log.child({ component: 'devnet' }),
    });
    shutdown.add('devnet', () => devnet.stop());
    const metrics = resolveMetricsListen(process.env);
    // Known once the store is open (after the API listens); the explorer page opens with it filled in.
    let accessKey: string | undefined;
    const app = await startSwitchyard({
      config: {
        host,
        port,
        dataDir: parsed.options.dataDir,
        ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
        role: 'all',
        chains: devnet.chainConfigs,
        ...(metrics && { metrics }),
        ...(webhookSecretsKey && { webhookSecretsKey }),
        ...(webhookSecretsPreviousKey && { webhookSecretsPreviousKey }),
        // Webhook receivers on a developer's machine are on loopback.
        webhooks: { allowPrivateTargets: true },
      },
      operator: devnetOperator(devnet.devnet),
      log,
      shutdown,
      explorerAccessKey: () => accessKey,
    });
    accessKey = await ensureDevnetAccessKey(app.store, devnet.devnet.accessKey);
    const explorerUrl = `${app.url}${EXPLORER_PATH}`;
    await devnet.recordService({ accessKey, apiUrl: app.url, explorerUrl, metricsUrl: app.metricsUrl });
    process.stdout.write(formatDevnetSummary(devnet));
    process.stdout.write(
      `\nAPI:          ${app.url}   (POST /rpc/Trails/<Method> or /rpc/Service/<Method>)\n`,
    );
    process.stdout.write(`access key:   ${accessKey}   (header X-Access-Key; also in devnet.json)\n`);
    process.stdout.write(`explorer:     ${explorerUrl}\n`);
    if (app.metricsUrl) process.stdout.write(`metrics:      ${app.metricsUrl}   (Prometheus)\n`);
    return await waitForStop(shutdown, signals, devnet.chainExited, log);
  } finally {
    signals.dispose();
  }
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got '${value}'`);
  }
  return port;
}
