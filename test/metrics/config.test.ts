/**
 * Where the metrics listener listens: `serve` defaults to 127.0.0.1:9464, METRICS_HOST/METRICS_PORT and the
 * config file's `metrics` change it, `"metrics": false` turns it off, and a bad value or a taken port stops
 * start-up with an error naming it.
 */
import { createServer, type Server } from 'node:net';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ConfigError, PortInUseError } from '../../src/internal/errors.ts';
import { createLogger, createSilentLogger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import { serveMetrics } from '../../src/metrics/serve-metrics.ts';
import { startMetricsServer } from '../../src/metrics/start-metrics-server.ts';
import { configChain, resolveConfigFile } from '../harness/config-file.ts';

const CHAIN = configChain(1, { name: 'one' });

const resolveWith = (extra: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  resolveConfigFile({ chains: [CHAIN], ...extra }, env);

describe('metrics listener configuration', () => {
  it('defaults to 127.0.0.1:9464; the environment and then the file change it; false turns it off', () => {
    expect(resolveWith({}).metrics).toEqual({ host: '127.0.0.1', port: 9464, skipIfTaken: true });
    expect(resolveWith({}, { METRICS_HOST: '0.0.0.0', METRICS_PORT: '9100' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9100,
    });
    expect(resolveWith({ metrics: { port: 0 } }, { METRICS_PORT: '9100' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
    expect(resolveWith({ metrics: false }).metrics).toBeUndefined();
  });

  it('refuses a bad value with the field it came from', () => {
    expect(() => resolveWith({ metrics: { port: 70_000 } })).toThrow(/metrics\.port: must be a TCP port/);
    expect(() => resolveWith({ metrics: true })).toThrow(/metrics: must be false or/);
    expect(() => resolveWith({}, { METRICS_PORT: 'x' })).toThrow(ConfigError);
    expect(() => resolveWith({}, { METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });

  it('stops start-up when a chosen port is taken, naming the setting; a taken default port is a warning', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const shutdown = createShutdown();
    try {
      const start = startMetricsServer({
        registry: new Registry(),
        listen: { host: '127.0.0.1', port },
        log: createSilentLogger(),
      });
      await expect(start).rejects.toBeInstanceOf(PortInUseError);
      await expect(start).rejects.toThrow(/metrics listener \(config metrics\.port/);
      await expect(
        serveMetrics({ listen: { host: '127.0.0.1', port }, log: createSilentLogger(), shutdown }),
      ).rejects.toBeInstanceOf(PortInUseError);

      const warnings: string[] = [];
      const log = createLogger({ format: 'json', write: (line) => warnings.push(JSON.parse(line).msg) });
      expect(
        await serveMetrics({ listen: { host: '127.0.0.1', port, skipIfTaken: true }, log, shutdown }),
      ).toBeUndefined();
      expect(warnings).toEqual([
        'the default metrics port is taken: this process keeps no metrics; set metrics.port to give it one',
      ]);
    } finally {
      holder.close();
      await shutdown.shutdown();
    }
  });
});
