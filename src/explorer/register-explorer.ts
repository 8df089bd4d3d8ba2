/**
 * The intent explorer on the API's own listener: `GET /explorer` and every page path below it answer the
 * one HTML document, `GET /explorer/assets/<name>` the bundled script and stylesheet, and
 * `POST /explorer/rpc/IntentDetails` the one read the page adds (intent-details.ts). Everything else the page
 * shows comes from the client methods under `/rpc/Trails/`, with the access key the person gives it.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PublicClient } from 'viem';
import type { AccessControl } from '../api/access.ts';
import { MethodUnavailableError } from '../api/errors/rpc-errors.ts';
import { IntentId } from '../api/schemas/wire.ts';
import { compileRequestDecoder } from '../api/validate-request.ts';
import type { Store } from '../store/index.ts';
import { createPageBuilder } from './build-page.ts';
import { EXPLORER_ASSETS_PATH, EXPLORER_PATH, INTENT_DETAILS_PATH } from './constants.ts';
import { createIntentDetails } from './intent-details.ts';
import { PAGE_SECURITY_HEADERS, pageHtml } from './page-html.ts';

/** An asset's name holds its content hash: a browser may keep it for a year. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const DETAILS_METHOD = 'IntentDetails';

export interface ExplorerOptions {
  /** Chain clients for the block and gas of an intent's transactions. */
  clients: ReadonlyMap<number, PublicClient>;
  /** The devnet's access key, which the page opens with; absent (production), the page asks for one. */
  accessKey?: (() => string | undefined) | undefined;
}

export function registerExplorer(
  app: FastifyInstance,
  deps: { store: Store | undefined; access: AccessControl; options: ExplorerOptions },
): void {
  const { store, access, options } = deps;
  const pages = createPageBuilder();
  const details = store && createIntentDetails({ store, clients: options.clients });
  const decodeDetails = compileRequestDecoder(Type.Object({ intentId: IntentId }));

  const sendPage = async (_request: unknown, reply: FastifyReply) => {
    const bundle = await pages.bundle();
    return reply
      .type('text/html; charset=utf-8')
      .headers(PAGE_SECURITY_HEADERS)
      .header('cache-control', 'no-cache')
      .send(pageHtml(bundle, options.accessKey?.()));
  };
  app.get(EXPLORER_PATH, sendPage);
  app.get(`${EXPLORER_PATH}/*`, sendPage);

  app.get<{ Params: { name: string } }>(`${EXPLORER_ASSETS_PATH}/:name`, async (request, reply) => {
    const bundle = await pages.bundle();
    const asset = [bundle.script, bundle.stylesheet].find((a) => a.name === request.params.name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('no such explorer asset\n');
    return reply
      .type(asset.contentType)
      .headers(PAGE_SECURITY_HEADERS)
      .header('cache-control', ASSET_CACHE_CONTROL)
      .send(asset.body);
  });

  app.post(
    INTENT_DETAILS_PATH,
    {
      config: { metricName: DETAILS_METHOD },
      onRequest: async (request) => {
        const key = request.headers['x-access-key'];
        const resolved = await access.authorize(
          Array.isArray(key) ? key[0] : key,
          DETAILS_METHOD,
          request.ip,
        );
        request.switchyardProjectId = resolved.projectId;
      },
    },
    async (request, reply) => {
      const { intentId } = decodeDetails(request.body) as { intentId: string };
      if (!details || request.switchyardProjectId === undefined)
        throw new MethodUnavailableError(DETAILS_METHOD);
      const answer = await details(request.switchyardProjectId, intentId);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer));
    },
  );
}
