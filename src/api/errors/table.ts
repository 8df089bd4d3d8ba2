/**
 * The webrpc error table: every code the official client knows (`@0xtrails/api` 0.9.4), with its
 * name, the HTTP status we answer with and the default message. The single source for the error
 * body we send, for docs/errors.md and for the sync test against the client's own classes.
 */
export interface RpcErrorSpec {
  readonly code: number;
  readonly name: string;
  readonly status: number;
  readonly message: string;
}

export const RPC_ERRORS = {
  WebrpcEndpoint: { code: 0, name: 'WebrpcEndpoint', status: 400, message: 'endpoint error' },
  WebrpcRequestFailed: { code: -1, name: 'WebrpcRequestFailed', status: 400, message: 'request failed' },
  WebrpcBadRoute: { code: -2, name: 'WebrpcBadRoute', status: 404, message: 'bad route' },
  WebrpcBadMethod: { code: -3, name: 'WebrpcBadMethod', status: 405, message: 'bad method' },
  WebrpcBadRequest: { code: -4, name: 'WebrpcBadRequest', status: 400, message: 'bad request' },
  WebrpcBadResponse: { code: -5, name: 'WebrpcBadResponse', status: 500, message: 'bad response' },
  WebrpcServerPanic: { code: -6, name: 'WebrpcServerPanic', status: 500, message: 'server panic' },
  WebrpcInternalError: { code: -7, name: 'WebrpcInternalError', status: 500, message: 'internal error' },
  WebrpcClientAborted: {
    code: -8,
    name: 'WebrpcClientAborted',
    status: 400,
    message: 'request aborted by client',
  },
  WebrpcStreamLost: { code: -9, name: 'WebrpcStreamLost', status: 400, message: 'stream lost' },
  WebrpcStreamFinished: { code: -10, name: 'WebrpcStreamFinished', status: 200, message: 'stream finished' },
  Unauthorized: { code: 1000, name: 'Unauthorized', status: 401, message: 'Unauthorized access' },
  PermissionDenied: { code: 1001, name: 'PermissionDenied', status: 403, message: 'Permission denied' },
  SessionExpired: { code: 1002, name: 'SessionExpired', status: 403, message: 'Session expired' },
  MethodNotFound: { code: 1003, name: 'MethodNotFound', status: 404, message: 'Method not found' },
  RequestConflict: {
    code: 1004,
    name: 'RequestConflict',
    status: 409,
    message: 'Conflict with target resource',
  },
  Aborted: { code: 1005, name: 'Aborted', status: 400, message: 'Request aborted' },
  Geoblocked: { code: 1006, name: 'Geoblocked', status: 451, message: 'Geoblocked region' },
  RateLimited: { code: 1007, name: 'RateLimited', status: 429, message: 'Rate-limited. Please slow down.' },
  ProjectNotFound: { code: 1008, name: 'ProjectNotFound', status: 401, message: 'Project not found' },
  AccessKeyNotFound: { code: 1101, name: 'AccessKeyNotFound', status: 401, message: 'Access key not found' },
  AccessKeyMismatch: { code: 1102, name: 'AccessKeyMismatch', status: 409, message: 'Access key mismatch' },
  InvalidOrigin: { code: 1103, name: 'InvalidOrigin', status: 403, message: 'Invalid origin for Access Key' },
  InvalidService: {
    code: 1104,
    name: 'InvalidService',
    status: 403,
    message: 'Service not enabled for Access key',
  },
  UnauthorizedUser: { code: 1105, name: 'UnauthorizedUser', status: 403, message: 'Unauthorized user' },
  QuotaExceeded: { code: 1200, name: 'QuotaExceeded', status: 429, message: 'Quota request exceeded' },
  QuotaRateLimit: { code: 1201, name: 'QuotaRateLimit', status: 429, message: 'Quota rate limit exceeded' },
  NoDefaultKey: { code: 1300, name: 'NoDefaultKey', status: 403, message: 'No default access key found' },
  MaxAccessKeys: { code: 1301, name: 'MaxAccessKeys', status: 403, message: 'Access keys limit reached' },
  AtLeastOneKey: {
    code: 1302,
    name: 'AtLeastOneKey',
    status: 403,
    message: 'You need at least one Access Key',
  },
  Timeout: { code: 1900, name: 'Timeout', status: 408, message: 'Request timed out' },
  InvalidArgument: { code: 2000, name: 'InvalidArgument', status: 400, message: 'Invalid argument' },
  Unexpected: { code: 2001, name: 'Unexpected', status: 500, message: 'Unexpected server error' },
  Unavailable: { code: 2002, name: 'Unavailable', status: 400, message: 'Unavailable resource' },
  QueryFailed: { code: 2003, name: 'QueryFailed', status: 400, message: 'Query failed' },
  IntentStatus: { code: 2004, name: 'IntentStatus', status: 422, message: 'Invalid intent status' },
  IntentsSkipped: {
    code: 7000,
    name: 'IntentsSkipped',
    status: 400,
    message: 'Intents skipped as client is attempting a transaction that does not require intents',
  },
  QuoteExpired: {
    code: 7001,
    name: 'QuoteExpired',
    status: 400,
    message: 'Intent quote has expired. Please try again.',
  },
  NotFound: { code: 8000, name: 'NotFound', status: 400, message: 'Resource not found' },
  UnsupportedNetwork: { code: 8008, name: 'UnsupportedNetwork', status: 422, message: 'Unsupported network' },
  ClientOutdated: { code: 8009, name: 'ClientOutdated', status: 422, message: 'Client is outdated' },
  IntentsDisabled: {
    code: 9000,
    name: 'IntentsDisabled',
    status: 400,
    message: 'Intents service is currently unavailable',
  },
} as const satisfies Record<string, RpcErrorSpec>;

export type RpcErrorName = keyof typeof RPC_ERRORS;

export const RPC_ERROR_LIST: readonly RpcErrorSpec[] = Object.values(RPC_ERRORS);
