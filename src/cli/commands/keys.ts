/**
 * `switchyard keys create|list|revoke --project NAME`: manage a project's access keys in the
 * configured store (DATABASE_URL, or the SQLite file in the data dir).
 */
import { parseArgs } from 'node:util';
import { AccessKeyNotFoundError, ProjectNotFoundError } from '../../store/errors.ts';
import { resolveStoreLocation } from '../../store/store-location.ts';
import type { AccessKey, Store } from '../../store/types.ts';
import { printTable } from '../format-table.ts';
import { withProjectStore } from '../with-project-store.ts';

const USAGE = `usage:
  switchyard keys create --project NAME [--label LABEL] [--rate-limit PER_MINUTE] [--data-dir DIR]
  switchyard keys list   --project NAME [--data-dir DIR]
  switchyard keys revoke --project NAME <prefix|id> [--data-dir DIR]

The store is PostgreSQL when DATABASE_URL is set, otherwise <data-dir>/switchyard.sqlite
(data dir: --data-dir, else SWITCHYARD_DATA_DIR, else ./.switchyard).
'create' prints the new key on stdout, once; it creates the project if it does not exist yet.
`;

type Options = {
  project?: string;
  label?: string;
  'rate-limit'?: string;
  'data-dir'?: string;
  help?: boolean;
};

export async function run(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`switchyard keys: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { action, values, positionals } = parsed;
  if (values.help || !action) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (!values.project) return usageError('--project NAME is required');

  const location = resolveStoreLocation({ dataDir: values['data-dir'], env: process.env });
  const project = values.project;
  return withProjectStore('keys', location, project, (store) =>
    dispatch(store, action, project, values, positionals),
  );
}

async function dispatch(
  store: Store,
  action: string,
  project: string,
  values: Options,
  positionals: string[],
) {
  switch (action) {
    case 'create':
      return create(store, project, values);
    case 'list':
      return list(store, project);
    case 'revoke':
      if (positionals.length !== 1) return usageError('revoke takes one key prefix or id');
      return revoke(store, project, positionals[0]!);
    default:
      return usageError(`unknown action '${action}'`);
  }
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      project: { type: 'string', short: 'p' },
      label: { type: 'string' },
      'rate-limit': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [action, ...rest] = positionals;
  return { action, values: values as Options, positionals: rest };
}

function usageError(message: string): number {
  process.stderr.write(`switchyard keys: ${message}\n\n${USAGE}`);
  return 2;
}

async function projectOrThrow(store: Store, name: string) {
  const project = await store.projects.findByName(name);
  if (!project) throw new ProjectNotFoundError(name);
  return project;
}

async function create(store: Store, projectName: string, values: Options): Promise<number> {
  const rate = values['rate-limit'];
  const rateLimitPerMinute = rate === undefined ? undefined : Number(rate);
  if (rateLimitPerMinute !== undefined && (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1)) {
    return usageError(`--rate-limit must be a positive integer (requests per minute), got '${rate}'`);
  }
  let project = await store.projects.findByName(projectName);
  if (!project) {
    project = await store.projects.create(projectName);
    process.stderr.write(`created project '${project.name}' (id ${project.id})\n`);
  }
  const { key, accessKey } = await store.accessKeys.create({
    projectId: project.id,
    ...(values.label !== undefined && { label: values.label }),
    ...(rateLimitPerMinute !== undefined && { rateLimitPerMinute }),
  });
  process.stdout.write(`${key}\n`);
  process.stderr.write(
    `access key ${accessKey.prefix}… (id ${accessKey.id}) for project '${project.name}', ` +
      `${accessKey.rateLimitPerMinute} requests/minute. It is shown only this once: store it now.\n`,
  );
  return 0;
}

async function list(store: Store, projectName: string): Promise<number> {
  const project = await projectOrThrow(store, projectName);
  const keys = await store.accessKeys.list(project.id);
  if (keys.length === 0) {
    process.stdout.write(`project '${project.name}' has no access keys\n`);
    return 0;
  }
  const rows = [['ID', 'PREFIX', 'LABEL', 'PER MINUTE', 'CREATED', 'REVOKED'], ...keys.map(listRow)];
  printTable(rows);
  return 0;
}

function listRow(k: AccessKey): string[] {
  return [
    String(k.id),
    k.prefix,
    k.label ?? '',
    String(k.rateLimitPerMinute),
    k.createdAt.toISOString(),
    k.revokedAt?.toISOString() ?? '',
  ];
}

async function revoke(store: Store, projectName: string, idOrPrefix: string): Promise<number> {
  const project = await projectOrThrow(store, projectName);
  try {
    const key = await store.accessKeys.revoke({ projectId: project.id, idOrPrefix });
    process.stdout.write(`revoked access key ${key.prefix}… (id ${key.id}) of project '${project.name}'\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof AccessKeyNotFoundError)) throw error;
    process.stderr.write(
      `switchyard keys: project '${project.name}' has no access key '${idOrPrefix}' (see: switchyard keys list --project ${project.name})\n`,
    );
    return 1;
  }
}
