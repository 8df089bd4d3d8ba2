/**
 * The metrics listener: `GET /metrics` in Prometheus's text format on its own host and port (config
 * `metrics`, default 127.0.0.1:9464), apart from the API so that the API's port never exposes it and
 * a scrape never queues behind API traffic. Anything else is 404.
 */
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { MetricsListenConfig } from '../internal/config-types.ts';
import { ConfigError, PortInUseError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';

export interface MetricsServer {
  /** http://host:port/metrics */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(options: {
  registry: Registry;
  listen: MetricsListenConfig;
  log: Logger;
}): Promise<MetricsServer> {
  const { registry, listen, log } = options;
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        log.error('metrics could not be collected', { error });
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n');
      },
    );
  });
  await listenOn(server, listen);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listenOn(server: Server, { host, port }: MetricsListenConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(host, port, 'the metrics listener (config metrics.port; 0 = any free port)')
          : new ConfigError(`metrics: cannot listen on ${host}:${port}: ${error.message}`, {
              cause: error,
              details: { host, port },
            }),
      ),
    );
    server.listen(port, host, () => resolve());
  });
}
