/**
 * The OpenAPI 3.1 document: the methods from the method table (request and response forms), and the
 * plain-HTTP routes programs call (GET /events, health, the document, the metrics listener).
 */
import { RPC_ERROR_LIST } from './errors/table.ts';
import { EVENT_SCHEMAS } from './openapi/event-schemas.ts';
import { EVENTS_PATH } from './openapi/events-path.ts';
import { SERVICE_PATHS, SERVICE_SCHEMAS } from './openapi/service-paths.ts';
import { deriveSchema } from './schemas/derive.ts';
import { METHODS, type MethodName } from './schemas/methods.ts';

const ERROR_BODY = {
  type: 'object',
  required: ['error', 'code', 'msg', 'message', 'status'],
  properties: {
    error: { type: 'string', description: 'error name, e.g. InvalidArgument' },
    code: { type: 'integer', enum: RPC_ERROR_LIST.map((e) => e.code) },
    msg: { type: 'string' },
    message: { type: 'string', description: 'same text as msg (read by the TypeScript client)' },
    cause: { type: 'string' },
    status: { type: 'integer', description: 'HTTP status' },
  },
};

export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const name of Object.keys(METHODS) as MethodName[]) {
    const def = METHODS[name];
    paths[`/rpc/Trails/${name}`] = {
      post: {
        operationId: name,
        summary: `${name} (also served at /rpc/Service/${name === 'GetTrailsContracts' ? 'GetServiceContracts' : name} with the seed spec's names)`,
        security: def.auth ? [{ accessKey: [] }] : [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: deriveSchema(def.request, 'request') } },
        },
        responses: {
          200: {
            description: 'OK',
            content: { 'application/json': { schema: deriveSchema(def.response, 'response') } },
          },
          default: {
            description: 'webrpc error',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard API',
      version,
      description:
        'Cross-chain intents over webrpc-style JSON, an event stream and health routes. See docs/api.md for dialects and wire rules.',
    },
    paths: { ...paths, '/events': EVENTS_PATH, ...SERVICE_PATHS },
    components: {
      schemas: { Error: ERROR_BODY, ...EVENT_SCHEMAS, ...SERVICE_SCHEMAS },
      securitySchemes: {
        accessKey: { type: 'apiKey', in: 'header', name: 'X-Access-Key' },
        // EventSource cannot set headers: GET /events also takes the key in its query string.
        accessKeyQuery: { type: 'apiKey', in: 'query', name: 'accessKey' },
      },
    },
  };
}
