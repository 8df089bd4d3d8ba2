/** The OpenAPI 3.1 document, generated from the method table (request and response forms). */
import { RPC_ERROR_LIST } from './errors/table.ts';
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
      description: 'Cross-chain intents over webrpc-style JSON. See docs/api.md for dialects and wire rules.',
    },
    paths,
    components: {
      schemas: { Error: ERROR_BODY },
      securitySchemes: { accessKey: { type: 'apiKey', in: 'header', name: 'X-Access-Key' } },
    },
  };
}
