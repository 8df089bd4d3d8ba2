/**
 * The HTTP API: every method on `POST /rpc/Trails/<Method>` (client names) and
 * `POST /rpc/Service/<Method>` (seed names), one handler each, JSON in and out, webrpc errors,
 * CORS, access keys and rate limits. `GET /openapi.json` describes it all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ExplorerOptions, registerExplorer } from '../explorer/register-explorer.ts';
import type { IntentServices } from '../intents/services/index.ts';
import type { ChainConfig, SwitchyardConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Store } from '../store/index.ts';
import type { YieldService } from '../yield/index.ts';
import { type AccessControl, createAccessControl, type ResolveAccessKey } from './access.ts';
import { createClientErrorHandler } from './answer-client-error.ts';
import type {
  ApiDeps,
  ApiServices,
  CallContext,
  ClientLeaveListener,
  Handler,
  PriceSource,
} from './context.ts';
import { type CorsOptions, corsHeadersFor, preflightHeaders } from './cors.ts';
import { type Dialect, renameKeysOut, TO_SERVICE } from './dialect.ts';
import {
  ExpectationFailedError,
  MalformedHttpRequestError,
  MalformedRequestError,
  MethodNotAllowedError,
  MethodUnavailableError,
  ServerClosingError,
  UnknownMethodError,
} from './errors/rpc-errors.ts';
import { toWireError } from './errors/to-wire-error.ts';
import { type EventStreamOptions, registerEventStream } from './events/event-stream-route.ts';
import { registerHealthRoutes } from './health-routes.ts';
import { createCatalogueHandlers } from './methods/index.ts';
import { createIntentHandlers } from './methods/intents/index.ts';
import { createReadHandlers } from './methods/reads/index.ts';
import { PreSerialised, type Serialize } from './methods/reads/pre-serialised.ts';
import { createYieldHandlers } from './methods/yield/index.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { type RateLimit, rateLimitFromPerMinute } from './rate-limiter.ts';
import { createRequestIds, REQUEST_ID_HEADER } from './request-id.ts';
import { deriveSchema, hasRenamedKey } from './schemas/derive.ts';
import { METHOD_ALIASES, METHODS, type MethodName } from './schemas/methods.ts';
import { compileRequestDecoder } from './validate-request.ts';

/**
 * Largest request body: a CommitIntent with long destination calldata is tens of KB; 1 MiB leaves
 * room for big contract calls while bounding what one request can make us parse.
 */
export const BODY_LIMIT_BYTES = 1_048_576;

export const API_VERSION = '0.1.0';

const HTTP_OK = 200;

export interface ApiServerOptions {
  config?: Pick<SwitchyardConfig, 'host' | 'port'> | undefined;
  chains: readonly ChainConfig[];
  /** QuoteIntent, CommitIntent, ExecuteIntent, AbortIntent, WaitIntentReceipt; without them Unavailable. */
  intents?: IntentServices | undefined;
  /** The Yield… methods and GetEarnPools; without it Unavailable. */
  yield?: YieldService | undefined;
  /** Handlers that replace the built ones by method name (a benchmark's timed wrapper). */
  services?: ApiServices | undefined;
  /** The database: access keys, intents. Without it keyed methods need `resolveAccessKey` and reads are Unavailable. */
  store?: Store | undefined;
  /** Overrides the store's key lookup (tests, benchmarks). */
  resolveAccessKey?: ResolveAccessKey | undefined;
  prices?: PriceSource | undefined;
  checkDatabase?: (() => Promise<void>) | undefined;
  chainHealth?: ApiDeps['chainHealth'];
  log: Logger;
  /** `false` disables per-key rate limits (benchmarks); default DEFAULT_RATE_LIMIT. */
  rateLimit?: RateLimit | false | undefined;
  /** Unknown or revoked keys per client address; `false` disables the limit; default FAILED_AUTH_RATE_LIMIT. */
  failedAuthLimit?: RateLimit | false | undefined;
  cors?: CorsOptions | undefined;
  /** Finished intents whose serialised receipts are cached (0: off); default RECEIPT_CACHE_MAX_INTENTS. */
  receiptCacheIntents?: number | undefined;
  /** Bytes of whole GetIntentHistory pages cached (0: off); default HISTORY_PAGE_CACHE_MAX_BYTES. */
  historyPageCacheBytes?: number | undefined;
  bodyLimitBytes?: number | undefined;
  /** GET /events (served when there is a store): heartbeat, feed poll, the metrics' observer. */
  eventStream?: EventStreamOptions | undefined;
  version?: string | undefined;
  now?: (() => Date) | undefined;
  /** Every answered request is counted and timed here (src/metrics); absent: nothing is counted. */
  metrics?: Metrics | undefined;
  /** Serves the intent explorer at /explorer (src/explorer); absent: no explorer. */
  explorer?: ExplorerOptions | undefined;
}

export interface ApiServer {
  app: FastifyInstance;
  /** Listens on host:port (port 0 = any free port) and returns the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    switchyardProjectId: number | undefined;
  }
  interface FastifyContextConfig {
    /** The name a route's requests are counted under in the metrics (the RPC method). */
    metricName?: string;
  }
}

const DIALECTS: readonly Dialect[] = ['Trails', 'Service'];

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const bodyLimit = options.bodyLimitBytes ?? BODY_LIMIT_BYTES;
  const now = options.now ?? (() => new Date());
  const store = options.store;
  // Set by listen(): the base of the links GetChains gives to the served explorer.
  let listeningUrl: string | undefined;
  const deps: ApiDeps = {
    chains: options.chains,
    chainById: new Map(options.chains.map((c) => [c.chainId, c])),
    prices: options.prices,
    checkDatabase: options.checkDatabase ?? (store ? async () => void (await store.ping()) : undefined),
    chainHealth: options.chainHealth,
    log: options.log,
    version: options.version ?? API_VERSION,
    startedAt: now(),
    now,
    publicUrl: () => listeningUrl,
  };
  const handlers: ApiServices = {
    ...createCatalogueHandlers(deps),
    ...(store
      ? createReadHandlers(deps, store, {
          receiptCacheIntents: options.receiptCacheIntents,
          historyPageCacheBytes: options.historyPageCacheBytes,
        })
      : {}),
    ...(options.intents && createIntentHandlers(options.intents, deps.chainById)),
    ...(options.yield && createYieldHandlers(options.yield, deps)),
    ...options.services,
  };
  const access = createAccessControl({
    resolveAccessKey: options.resolveAccessKey ?? storeKeyResolver(store),
    rateLimit: options.rateLimit,
    failedAuthLimit: options.failedAuthLimit,
    // A test's clock drives the limits too; production's reads Date.now without making a Date per request.
    now: options.now ? () => now().getTime() : Date.now,
  });
  const cors = options.cors ?? { allowedOrigins: '*' };
  const answer: ErrorAnswer = { bodyLimit, cors, log: options.log };
  const requestIds = createRequestIds();
  // Set by close(): requests still arriving on kept-alive connections are told to go elsewhere.
  let closing = false;

  const app = Fastify({
    bodyLimit,
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // Node's and Fastify's own answers (header overflow, unparsable requests, a URL that does not decode,
    // shutting down) in the webrpc shape with CORS, like every other error.
    clientErrorHandler: createClientErrorHandler({
      cors,
      bodyLimitBytes: bodyLimit,
      requestId: requestIds.fresh,
    }),
    genReqId: requestIds.of,
    frameworkErrors: (error, request, reply) =>
      sendError(
        error.code === 'FST_ERR_BAD_URL' ? new MalformedHttpRequestError(error.message, error.code) : error,
        request,
        reply,
        answer,
      ),
    return503OnClosing: false,
    // Checked in onRequest instead, so the refusal is a webrpc body (Node's is an empty 400).
    http: { requireHostHeader: false },
  });
  app.server.on('checkExpectation', (request, response) =>
    answerExpectation(request, response, answer, requestIds.of(request)),
  );
  app.decorateRequest('switchyardProjectId', undefined);
  installBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(corsHeadersFor(cors, request.headers.origin)).header(REQUEST_ID_HEADER, request.id);
    if (closing) throw new ServerClosingError();
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw new MalformedHttpRequestError('an HTTP/1.1 request must carry a Host header');
    }
  });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, answer));
  if (options.metrics) countRequests(app, options.metrics);
  app.setNotFoundHandler((request) => {
    if (request.method !== 'POST') throw new MethodNotAllowedError(request.method);
    throw new UnknownMethodError(request.method, request.url);
  });
  app.options('*', async (_request, reply) => reply.code(204).headers(preflightHeaders()).send());

  const openapi = JSON.stringify(buildOpenApiDocument(deps.version));
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
  registerHealthRoutes(app, { runtimeStatus: handlers.RuntimeStatus! });

  if (store) registerEventStream(app, { store, access, log: options.log, ...options.eventStream });

  for (const name of Object.keys(METHODS) as MethodName[]) {
    const aliases = Object.entries(METHOD_ALIASES)
      .filter(([, target]) => target === name)
      .map(([alias]) => alias);
    for (const dialect of DIALECTS) {
      for (const path of [name, ...aliases])
        registerMethod(app, name, dialect, `/rpc/${dialect}/${path}`, handlers, access);
    }
  }

  if (options.explorer) registerExplorer(app, { store, access, options: options.explorer });

  return {
    app,
    async listen(port = options.config?.port ?? 0, host = options.config?.host ?? '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      listeningUrl = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
      return listeningUrl;
    },
    close: () => {
      closing = true;
      return app.close();
    },
  };
}

function storeKeyResolver(store: Store | undefined): ResolveAccessKey {
  if (!store) return () => undefined;
  return async (key) => {
    const row = await store.accessKeys.resolve(key);
    return row && { projectId: row.projectId, rateLimit: rateLimitFromPerMinute(row.rateLimitPerMinute) };
  };
}

function registerMethod(
  app: FastifyInstance,
  name: MethodName,
  dialect: Dialect,
  url: string,
  handlers: ApiServices,
  access: AccessControl,
): void {
  const def = METHODS[name];
  const decode = compileRequestDecoder(def.request);
  const rename = dialect === 'Service' && hasRenamedKey(def.response, TO_SERVICE) ? TO_SERVICE : undefined;
  const handler = handlers[name] as Handler<MethodName> | undefined;
  const respond = (output: unknown, reply: FastifyReply): unknown => {
    reply.type('application/json; charset=utf-8');
    if (output instanceof PreSerialised) {
      // The route's own serialiser, so composed bytes are what an object answer would have become;
      // a Buffer is sent as it is (the content type is already set).
      const serialize = reply.getSerializationFunction(String(HTTP_OK)) as Serialize | undefined;
      if (!serialize) throw new Error(`${name}: the route has no compiled response serialiser`);
      return output.compose(rename ? (value) => serialize(renameKeysOut(value)) : serialize);
    }
    return rename ? renameKeysOut(output) : output;
  };
  app.route({
    method: 'POST',
    url,
    config: { metricName: name },
    schema: { response: { [HTTP_OK]: deriveSchema(def.response, 'response', rename) } },
    onRequest: def.auth
      ? async (request: FastifyRequest) => {
          const key = request.headers['x-access-key'];
          const resolved = await access.authorize(Array.isArray(key) ? key[0] : key, name, request.ip);
          request.switchyardProjectId = resolved.projectId;
        }
      : undefined,
    // Not an async function: a held call (WaitIntentReceipt) kept its frame alive while it waited, ~0.5 KB
    // per call at 10,000 (docs/benchmarks.md, "Waiting at scale"); a `then` holds only the reply.
    handler: (request, reply) => {
      try {
        const input = decode(request.body) as never;
        if (!handler) throw new MethodUnavailableError(name);
        const ctx = new RequestContext(request.switchyardProjectId, name, dialect, reply.raw, request.id);
        return Promise.resolve(handler(input, ctx)).then((output) => respond(output, reply));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  });
}

/**
 * One request's CallContext. Nothing is listened to unless the handler asks (`onClientLeave`, or
 * `signal`, whose AbortController is made on first read): an AbortController plus the DOMException of
 * `abort()` on every request was ~10% of a cached read's CPU time, and a controller, its signal and a
 * listener record per held WaitIntentReceipt call ~1 KB each (docs/benchmarks.md, "Waiting at scale").
 * A connection closing after a finished answer is not a client leaving.
 */
class RequestContext implements CallContext {
  readonly projectId: number | undefined;
  readonly method: MethodName;
  readonly dialect: Dialect;
  readonly requestId: string;
  private readonly raw: ServerResponse;
  private controller: AbortController | undefined;

  constructor(
    projectId: number | undefined,
    method: MethodName,
    dialect: Dialect,
    raw: ServerResponse,
    requestId: string,
  ) {
    this.projectId = projectId;
    this.method = method;
    this.dialect = dialect;
    this.raw = raw;
    this.requestId = requestId;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      this.onClientLeave({ clientLeft: () => controller.abort() });
    }
    return this.controller.signal;
  }

  onClientLeave(listener: ClientLeaveListener): void {
    const raw = this.raw;
    // `destroyed` is set when the response closed (finished or not): the client may have gone already.
    if (raw.destroyed) {
      if (!raw.writableFinished) listener.clientLeft();
      return;
    }
    // `on`, not `once`: a response closes once, and `once` adds a wrapper per listener.
    raw.on('close', () => {
      if (!raw.writableFinished) listener.clientLeft();
    });
  }
}

/** Every body is read as text and parsed as JSON whatever its content type; bad JSON is WebrpcBadRequest. */
function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new MalformedRequestError(`request body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
    }
  });
}

/** What every error answer needs from the server's options. */
interface ErrorAnswer {
  bodyLimit: number;
  cors: CorsOptions;
  log: Logger;
}

function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) {
  const wire = toWireError(error, answer.bodyLimit);
  if (wire.unexpected) {
    answer.log.error('unexpected error while answering a request', {
      requestId: request.id,
      // The path only: GET /events takes the access key in its query string.
      url: request.url.split('?')[0],
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
  return (
    reply
      .code(wire.httpStatus)
      // Again here: a framework error (a URL that does not decode) is answered before the onRequest hook.
      .headers(corsHeadersFor(answer.cors, request.headers.origin))
      .header(REQUEST_ID_HEADER, request.id)
      .headers(wire.headers)
      .type('application/json; charset=utf-8')
      .serializer((payload: unknown) => JSON.stringify(payload))
      .send(wire.body)
  );
}

/**
 * An `Expect` header other than 100-continue: Node would answer an empty 417 itself; this is the same
 * status with the webrpc body and CORS.
 */
function answerExpectation(
  request: IncomingMessage,
  response: ServerResponse,
  answer: ErrorAnswer,
  requestId: string,
): void {
  const wire = toWireError(new ExpectationFailedError(String(request.headers.expect)), answer.bodyLimit);
  const body = JSON.stringify(wire.body);
  response
    .writeHead(wire.httpStatus, {
      ...corsHeadersFor(answer.cors, request.headers.origin),
      ...wire.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      [REQUEST_ID_HEADER]: requestId,
    })
    .end(body);
}

/**
 * Counts and times every answered request: by its RPC method, another route by method and path, and a path
 * no route serves as `unmatched` (one series, whatever strangers send). A callback hook, not an async one:
 * no promise per request.
 */
function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions;
    const method = route.config.metricName ?? (route.url ? `${request.method} ${route.url}` : 'unmatched');
    metrics.httpRequest(method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
