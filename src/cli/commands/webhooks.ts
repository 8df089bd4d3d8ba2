/**
 * `switchyard webhooks add|list|remove|test|replay|resume|log --project NAME`: a project's webhook
 * endpoints in the configured store (docs/webhooks.md). The store and the target policy come from
 * `--config FILE` (a serve config), else from DATABASE_URL or the data dir, where a devnet allows loopback
 * and private targets as `switchyard start` does. WEBHOOK_SECRETS_KEY (and WEBHOOK_SECRETS_PREVIOUS_KEY during
 * a rotation) come from the environment either way; `encrypt-secrets` brings every project's secrets to the
 * current form under WEBHOOK_SECRETS_KEY.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { devnetFilePath } from '../../devnet/devnet-file-path.ts';
import { ALL_EVENT_TYPES, parseEventTypes } from '../../events/event-types.ts';
import { createLogger } from '../../internal/logger.ts';
import { type CreateStoreOptions, createStore } from '../../store/create-store.ts';
import { ProjectNotFoundError } from '../../store/errors.ts';
import { resolveDataDir, resolveStoreLocation, type StoreLocation } from '../../store/store-location.ts';
import type { Project, Store, WebhookDelivery, WebhookEndpoint } from '../../store/types.ts';
import { parseSince } from '../../webhooks/parse-since.ts';
import { resolveWebhookSecretsKeys } from '../../webhooks/resolve-secrets-key.ts';
import { isSuccess } from '../../webhooks/send-delivery.ts';
import { sendPing } from '../../webhooks/send-ping.ts';
import { newWebhookSecret } from '../../webhooks/signature.ts';
import { checkWebhookTarget } from '../../webhooks/target-guard.ts';
import { printTable } from '../format-table.ts';
import { withProjectStore } from '../with-project-store.ts';

const USAGE = `usage:
  switchyard webhooks add     --project NAME --url URL [--events LIST]
  switchyard webhooks list    --project NAME
  switchyard webhooks remove  --project NAME --id ID
  switchyard webhooks test    --project NAME --id ID
  switchyard webhooks replay  --project NAME --id ID --since TIME
  switchyard webhooks resume  --project NAME --id ID
  switchyard webhooks log     --project NAME --id ID [--limit N]
  switchyard webhooks encrypt-secrets
each also takes [--config FILE | --data-dir DIR]

'add' prints the endpoint's id and signing secret on stdout, once. --events is a comma-separated list of
event types or prefixes (intent.succeeded,transaction.*; default *). --since is an RFC 3339 time, Unix
seconds, or a duration back from now (30m, 6h, 2d). The store is the one 'serve --config FILE' uses, else
PostgreSQL when DATABASE_URL is set, else <data-dir>/switchyard.sqlite (--data-dir, SWITCHYARD_DATA_DIR,
./.switchyard). Loopback and private-range URLs are refused unless the config sets
webhooks.allowPrivateTargets, or the data dir holds a devnet. With WEBHOOK_SECRETS_KEY set (64 hex
characters) secrets are stored encrypted, each bound to its endpoint; WEBHOOK_SECRETS_PREVIOUS_KEY, the key
being replaced during a rotation, is read with too. 'encrypt-secrets' encrypts the secrets stored plain
before the key was set, in every project, rewrites older enc:v1 values as enc:v2, re-encrypts under
WEBHOOK_SECRETS_KEY every secret WEBHOOK_SECRETS_PREVIOUS_KEY opens, and prints how many. See
docs/webhooks.md.
`;

/** Rows `log` prints when --limit is not given. */
const DEFAULT_LOG_LIMIT = 20;

type Values = {
  project?: string;
  url?: string;
  events?: string;
  id?: string;
  since?: string;
  limit?: string;
  config?: string;
  'data-dir'?: string;
  help?: boolean;
};

interface Context {
  store: Store;
  project: Project;
  values: Values;
  allowPrivateTargets: boolean;
}

export async function run(argv: string[]): Promise<number> {
  let action: string | undefined;
  let values: Values;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: 'string', short: 'p' },
        url: { type: 'string' },
        events: { type: 'string' },
        id: { type: 'string' },
        since: { type: 'string' },
        limit: { type: 'string' },
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    values = parsed.values as Values;
    if (parsed.positionals.length > 1) throw new Error(`unexpected argument '${parsed.positionals[1]}'`);
    action = parsed.positionals[0];
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help || !action) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (action === 'encrypt-secrets') {
    // It converts every project's secrets: a --project would suggest it converts one only.
    if (values.project) return usageError('encrypt-secrets covers every project; drop --project');
    return encryptSecrets(values);
  }
  const handler = ACTIONS[action];
  if (!handler) return usageError(`unknown action '${action}'`);
  if (!values.project) return usageError('--project NAME is required');
  const { location, allowPrivateTargets, webhookSecrets } = await storeSettings(values);
  const projectName = values.project;
  const at = { ...location, ...webhookSecrets };
  return withProjectStore('webhooks', at, projectName, async (store) => {
    const project = await store.projects.findByName(projectName);
    if (!project) throw new ProjectNotFoundError(projectName);
    return handler({ store, project, values, allowPrivateTargets });
  });
}

const ACTIONS: Record<string, (ctx: Context) => Promise<number>> = {
  add,
  list,
  remove: withEndpoint(remove),
  test: withEndpoint(test),
  replay: withEndpoint(replay),
  resume: withEndpoint(resume),
  log: withEndpoint(log),
};

interface StoreSettings {
  location: StoreLocation;
  allowPrivateTargets: boolean;
  webhookSecrets: Pick<CreateStoreOptions, 'webhookSecretsKey' | 'webhookSecretsPreviousKey'>;
}

/**
 * The store, whether private targets are allowed, and the secrets' keys: from the serve config, or the data
 * dir and the environment.
 */
async function storeSettings(values: Values): Promise<StoreSettings> {
  if (values.config) {
    // Loaded only for --config: the config's schemas (TypeBox, viem) would add to every command's start-up.
    const { resolveConfig } = await import('../../api/resolve-config.ts');
    const config = resolveConfig({ configPath: values.config, env: process.env, flags: {} });
    const location = config.databaseUrl
      ? resolveStoreLocation({ env: { DATABASE_URL: config.databaseUrl } })
      : resolveStoreLocation({ dataDir: config.dataDir, env: {} });
    return {
      location,
      allowPrivateTargets: config.webhooks?.allowPrivateTargets ?? false,
      webhookSecrets: {
        webhookSecretsKey: config.webhookSecretsKey,
        webhookSecretsPreviousKey: config.webhookSecretsPreviousKey,
      },
    };
  }
  const dataDir = resolveDataDir(values['data-dir'], process.env);
  return {
    location: resolveStoreLocation({ dataDir, env: process.env }),
    // `switchyard start` delivers to loopback targets; its data dir holds devnet.json.
    allowPrivateTargets: existsSync(devnetFilePath(dataDir)),
    webhookSecrets: webhookSecretsFromEnv(process.env),
  };
}

function webhookSecretsFromEnv(env: NodeJS.ProcessEnv): StoreSettings['webhookSecrets'] {
  const { key, previousKey } = resolveWebhookSecretsKeys(env);
  return { webhookSecretsKey: key, webhookSecretsPreviousKey: previousKey };
}

/**
 * Every project's secrets at once: a database-wide step an operator takes when turning the key on, when
 * rotating it (WEBHOOK_SECRETS_PREVIOUS_KEY, the key being replaced; docs/webhooks.md, "Rotating the key"),
 * and once after upgrading from a release that wrote `enc:v1:` values.
 */
async function encryptSecrets(values: Values): Promise<number> {
  const { location, webhookSecrets } = await storeSettings(values);
  if (!webhookSecrets.webhookSecretsKey) {
    process.stderr.write(
      'switchyard webhooks: encrypt-secrets needs WEBHOOK_SECRETS_KEY in the environment ' +
        '(64 hex characters, 32 bytes: `openssl rand -hex 32`), the same key every process of the ' +
        'deployment is started with\n',
    );
    return 1;
  }
  const previousKey = webhookSecrets.webhookSecretsPreviousKey !== undefined;
  const store = await createStore({ ...location, ...webhookSecrets, log: createLogger({ level: 'warn' }) });
  try {
    const { encrypted, reencrypted, upgraded, unreadable } = await store.webhooks.encryptSecrets();
    const secrets = (n: number) => `${n} webhook signing secret${n === 1 ? '' : 's'}`;
    const rotated = previousKey ? `, re-encrypted ${reencrypted} from WEBHOOK_SECRETS_PREVIOUS_KEY` : '';
    // Only when there were any: after the first run on a deployment, there never are again.
    const rewritten = upgraded > 0 ? `, upgraded ${upgraded} from enc:v1 to enc:v2` : '';
    process.stdout.write(
      `encrypted ${secrets(encrypted)}${rotated}${rewritten} in ${location.description}\n`,
    );
    if (unreadable.length === 0) return 0;
    process.stderr.write(
      `switchyard webhooks: ${secrets(unreadable.length)} open with neither WEBHOOK_SECRETS_KEY` +
        `${previousKey ? ' nor WEBHOOK_SECRETS_PREVIOUS_KEY' : ''} (endpoints ${unreadable.join(', ')}): ` +
        `${previousKey ? 'left as they are' : 'set WEBHOOK_SECRETS_PREVIOUS_KEY to the key they were encrypted with'}\n`,
    );
    return 1;
  } finally {
    await store.close();
  }
}

async function add({ store, project, values, allowPrivateTargets }: Context): Promise<number> {
  if (!values.url) return usageError('add needs --url URL');
  const url = await checkWebhookTarget(values.url, allowPrivateTargets);
  const eventTypes = values.events === undefined ? ALL_EVENT_TYPES : parseEventTypes(values.events);
  const secret = newWebhookSecret();
  const endpoint = await store.webhooks.create({
    projectId: project.id,
    url: url.href,
    secret,
    eventTypes: [...eventTypes],
  });
  process.stdout.write(`id: ${endpoint.id}\nsecret: ${secret}\n`);
  process.stderr.write(
    `webhook endpoint ${endpoint.id} of project '${project.name}' → ${endpoint.url} ` +
      `(events: ${endpoint.eventTypes.join(',')}), from event ${endpoint.handledSeq + 1} on. ` +
      'The secret is shown only this once: store it now.\n',
  );
  return 0;
}

async function list({ store, project }: Context): Promise<number> {
  const endpoints = await store.webhooks.list(project.id);
  if (endpoints.length === 0) {
    process.stdout.write(`project '${project.name}' has no webhook endpoints\n`);
    return 0;
  }
  const header = ['ID', 'URL', 'EVENTS', 'STATE', 'HANDLED', 'ATTEMPTS', 'LAST ATTEMPT'];
  printTable([header, ...endpoints.map((e) => [...endpointCells(e), lastAttempt(e.lastDelivery)])]);
  return 0;
}

function endpointCells(e: WebhookEndpoint): string[] {
  return [String(e.id), e.url, e.eventTypes.join(','), e.state, String(e.handledSeq), String(e.attempts)];
}

function lastAttempt(d: WebhookDelivery | null): string {
  if (!d) return '';
  return `${d.statusCode ?? 'no answer'} event ${d.eventSeq} ${Math.round(d.latencyMs)} ms ${d.createdAt.toISOString()}`;
}

type EndpointAction = (ctx: Context, endpoint: WebhookEndpoint) => Promise<number>;

/** Actions on one endpoint, named by --id among the project's. */
function withEndpoint(action: EndpointAction): (ctx: Context) => Promise<number> {
  return async (ctx) => {
    const id = Number(ctx.values.id);
    if (ctx.values.id === undefined || !Number.isSafeInteger(id) || id < 1)
      return usageError(
        `--id must be an endpoint id (a positive whole number), got '${ctx.values.id ?? ''}'`,
      );
    const endpoint = await ctx.store.webhooks.get({ projectId: ctx.project.id, id });
    if (!endpoint) {
      process.stderr.write(
        `switchyard webhooks: project '${ctx.project.name}' has no webhook endpoint ${id} ` +
          `(see: switchyard webhooks list --project ${ctx.project.name})\n`,
      );
      return 1;
    }
    return action(ctx, endpoint);
  };
}

async function remove({ store, project }: Context, endpoint: WebhookEndpoint): Promise<number> {
  await store.webhooks.remove({ projectId: project.id, id: endpoint.id });
  process.stdout.write(
    `removed webhook endpoint ${endpoint.id} (${endpoint.url}) of project '${project.name}'\n`,
  );
  return 0;
}

async function test({ store, allowPrivateTargets }: Context, endpoint: WebhookEndpoint): Promise<number> {
  const outcome = await sendPing(store, endpoint, { allowPrivateTargets });
  const latency = `${Math.round(outcome.latencyMs)} ms`;
  process.stdout.write(
    outcome.status === null
      ? `ping to ${endpoint.url}: no answer (${outcome.error}) after ${latency}\n`
      : `ping to ${endpoint.url}: HTTP ${outcome.status} in ${latency}\n`,
  );
  return isSuccess(outcome) ? 0 : 1;
}

async function replay({ store, project, values }: Context, endpoint: WebhookEndpoint): Promise<number> {
  if (!values.since) return usageError('replay needs --since TIME');
  const since = parseSince(values.since, new Date());
  const { after, truncated } = await store.eventLog.positionAt({ projectId: project.id, since });
  await store.webhooks.reactivate({ projectId: project.id, id: endpoint.id, handledSeq: after });
  if (truncated)
    process.stderr.write(
      `events before event ${after + 1} are past the retention and gone; the replay starts there\n`,
    );
  process.stdout.write(
    `webhook endpoint ${endpoint.id} replays from event ${after + 1} (the first since ${since.toISOString()}), in order\n`,
  );
  return 0;
}

async function resume({ store, project }: Context, endpoint: WebhookEndpoint): Promise<number> {
  await store.webhooks.reactivate({ projectId: project.id, id: endpoint.id });
  process.stdout.write(
    `webhook endpoint ${endpoint.id} is active again, from event ${endpoint.handledSeq + 1} (${endpoint.state} before)\n`,
  );
  return 0;
}

async function log({ store, values }: Context, endpoint: WebhookEndpoint): Promise<number> {
  const limit = values.limit === undefined ? DEFAULT_LOG_LIMIT : Number(values.limit);
  if (!Number.isSafeInteger(limit) || limit < 1)
    return usageError(`--limit must be a positive whole number, got '${values.limit}'`);
  const deliveries = await store.webhooks.deliveries({ endpointId: endpoint.id, limit });
  const header = ['TIME', 'EVENT', 'TYPE', 'ATTEMPT', 'STATUS', 'LATENCY MS', 'ERROR'];
  printTable([
    header,
    ...deliveries.map((d) => [
      d.createdAt.toISOString(),
      String(d.eventSeq),
      d.eventType,
      String(d.attempt),
      d.statusCode === null ? '-' : String(d.statusCode),
      String(Math.round(d.latencyMs)),
      d.error ?? '',
    ]),
  ]);
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`switchyard webhooks: ${message}\n\n${USAGE}`);
  return 2;
}
