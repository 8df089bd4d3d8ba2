/**
 * Health endpoints for a load balancer or an orchestrator, beside the RPC methods on the API listener:
 *
 * - `GET /healthz` (liveness): 200 `{ "live": true }` while the process answers HTTP at all. It checks
 *   nothing else, so a database or chain outage never gets a process restarted for nothing.
 * - `GET /readyz` (readiness): 200 when the database and every chain's RPC answer, 503 otherwise, with each
 *   check in the body. The checks are RuntimeStatus's own probes, shared with its method: a probe round serves every
 *   caller for PROBE_RESULTS_TTL_MS, so frequent probes cost one database round trip and one eth_chainId per
 *   chain a second. A process shutting down answers 503 on both (the server's closing answer), so a load
 *   balancer stops sending it requests.
 *
 * No access key: they reveal what RuntimeStatus does, which is public too.
 */
import type { FastifyInstance } from 'fastify';
import type { CallContext, Handler } from './context.ts';

const HTTP_OK = 200;
const HTTP_UNAVAILABLE = 503;

export interface HealthRouteDeps {
  /** The RuntimeStatus handler: its probes (chains, database) decide readiness. */
  runtimeStatus: Handler<'RuntimeStatus'>;
}

const PROBE_CONTEXT: CallContext = { projectId: undefined, method: 'RuntimeStatus', dialect: 'Trails' };

export function registerHealthRoutes(app: FastifyInstance, deps: HealthRouteDeps): void {
  app.get('/healthz', async (_request, reply) => reply.code(HTTP_OK).send({ live: true }));
  app.get('/readyz', async (_request, reply) => {
    const { status } = await deps.runtimeStatus({} as never, PROBE_CONTEXT);
    const checks = status.services.map(({ name, healthy, error }) => ({
      name,
      healthy,
      ...(error !== undefined && { error }),
    }));
    return reply.code(status.healthOK ? HTTP_OK : HTTP_UNAVAILABLE).send({ ready: status.healthOK, checks });
  });
}
