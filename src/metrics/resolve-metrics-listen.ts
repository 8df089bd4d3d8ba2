/**
 * Where the metrics listener listens: defaults ← environment (METRICS_HOST, METRICS_PORT) ← the config
 * file's `metrics` (`false` turns the listener off). `switchyard serve` and `switchyard start` both use it.
 * The default port is skipped with a warning when taken (several processes on one box); a chosen one is not.
 */
import type { MetricsListenConfig } from '../internal/config-types.ts';
import { ConfigError } from '../internal/errors.ts';

/** Loopback: the metrics tell anyone who reads them about balances and traffic; a scraper on another host is configured on purpose. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
/** The port OpenTelemetry's Prometheus exporter uses by default; free beside the API's 8787. */
export const DEFAULT_METRICS_PORT = 9464;

export function resolveMetricsListen(
  env: NodeJS.ProcessEnv,
  file?: { host?: string | undefined; port?: number | undefined } | false,
): MetricsListenConfig | undefined {
  if (file === false) return undefined;
  const chosen = file?.port ?? parsePort(env.METRICS_PORT);
  const host = file?.host ?? env.METRICS_HOST ?? DEFAULT_METRICS_HOST;
  return chosen === undefined
    ? { host, port: DEFAULT_METRICS_PORT, skipIfTaken: true }
    : { host, port: chosen };
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(`METRICS_PORT must be an integer from 0 to 65535, got '${value}'`);
  return port;
}
