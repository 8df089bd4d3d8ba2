/**
 * The operator's plain-HTTP routes in the OpenAPI document: health (health-routes.ts), the document itself,
 * and the metrics listener's GET /metrics, which listens on a host and port of its own (path-level servers).
 */
import { Registry } from 'prom-client';
import { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT } from '../../metrics/resolve-metrics-listen.ts';
import { PROBE_RESULTS_TTL_MS } from '../methods/runtime-status.ts';
import { CLOSING, ERROR_REF, errorResponses } from './error-responses.ts';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const text = (schema: unknown, type = 'text/plain; charset=utf-8') => ({ content: { [type]: { schema } } });

const LIVENESS = {
  type: 'object',
  required: ['live'],
  properties: { live: { const: true } },
};

const READINESS_BODY = {
  type: 'object',
  required: ['ready', 'checks'],
  properties: {
    ready: { type: 'boolean' },
    checks: {
      type: 'array',
      description: "RuntimeStatus's probes: chain:<chainId> per chain (eth_chainId), then database",
      items: {
        type: 'object',
        required: ['name', 'healthy'],
        properties: {
          name: { type: 'string', examples: ['chain:8453', 'database'] },
          healthy: { type: 'boolean' },
          error: { type: 'string', description: 'why the check failed' },
        },
      },
    },
  },
};

const READINESS = { $ref: '#/components/schemas/Readiness' };
export const SERVICE_SCHEMAS = { Readiness: READINESS_BODY };

/** A load balancer's probe needs no key: security [] on each. */
const HEALTHZ = {
  get: {
    operationId: 'healthz',
    summary: 'Liveness: 200 while the process answers HTTP; it checks nothing else',
    security: [],
    responses: { 200: { description: 'live', ...json(LIVENESS) }, ...errorResponses([CLOSING]) },
  },
};

const CLOSING_503 = errorResponses([CLOSING])['503'] as {
  headers: unknown;
  content: { 'application/json': { examples: unknown } };
};

const READYZ = {
  get: {
    operationId: 'readyz',
    summary: 'Readiness: 200 while the database and every chain answer, 503 naming the failing checks',
    description: `The checks are RuntimeStatus's probes; one round serves every caller for ${PROBE_RESULTS_TTL_MS} ms.`,
    security: [],
    responses: {
      200: { description: 'ready', ...json(READINESS) },
      503: {
        description: 'not ready (the checks), or shutting down (a webrpc error with Retry-After)',
        headers: CLOSING_503.headers,
        content: {
          'application/json': {
            schema: { oneOf: [READINESS, ERROR_REF] },
            examples: CLOSING_503.content['application/json'].examples,
          },
        },
      },
    },
  },
};

const OPENAPI_JSON = {
  get: {
    operationId: 'openapi',
    summary: 'This document',
    security: [],
    responses: {
      200: { description: 'OpenAPI 3.1', ...json({ type: 'object' }) },
      ...errorResponses([CLOSING]),
    },
  },
};

const METRICS = {
  get: {
    operationId: 'metrics',
    summary:
      "Prometheus metrics, on the metrics listener (config metrics), not the API's port (docs/metrics.md)",
    servers: [
      {
        url: 'http://{host}:{port}',
        variables: {
          host: { default: DEFAULT_METRICS_HOST },
          port: { default: String(DEFAULT_METRICS_PORT) },
        },
      },
    ],
    security: [],
    responses: {
      200: {
        description: "Prometheus's text format",
        ...text({ type: 'string' }, Registry.PROMETHEUS_CONTENT_TYPE),
      },
      500: {
        description: 'the metrics could not be collected (logged)',
        ...text({ type: 'string', const: 'metrics failed\n' }),
      },
    },
  },
};

export const SERVICE_PATHS = {
  '/healthz': HEALTHZ,
  '/readyz': READYZ,
  '/openapi.json': OPENAPI_JSON,
  '/metrics': METRICS,
};
