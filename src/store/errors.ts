/** Storage conditions a caller can act on. Driver errors pass through unchanged. */
import { SwitchyardError } from '../internal/errors.ts';

export class ProjectNotFoundError extends SwitchyardError {
  override readonly name = 'ProjectNotFoundError';
  constructor(project: string | number) {
    super(`project '${project}' does not exist`, { details: { project } });
  }
}

export class ProjectExistsError extends SwitchyardError {
  override readonly name = 'ProjectExistsError';
  constructor(name: string) {
    super(`a project named '${name}' already exists`, { details: { name } });
  }
}

export class AccessKeyNotFoundError extends SwitchyardError {
  override readonly name = 'AccessKeyNotFoundError';
  constructor(projectId: number, idOrPrefix: string) {
    super(`no access key '${idOrPrefix}' in project ${projectId}`, { details: { projectId, idOrPrefix } });
  }
}

/**
 * A page request the store cannot serve (unknown column, bad order, page size or cursor). `field` is the
 * member's path inside the page (`column`, `sort[0].column`, `after`); the API answers InvalidArgument
 * naming `page.<field>`.
 */
export class InvalidPageError extends SwitchyardError {
  override readonly name = 'InvalidPageError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`page.${field}: ${problem}`, { details: { field } });
  }
}

/** The database could not be migrated at start-up. */
export class MigrationError extends SwitchyardError {
  override readonly name = 'MigrationError';
  constructor(migration: string | undefined, cause: unknown) {
    super(`database migration ${migration ?? '(unknown)'} failed: ${(cause as Error)?.message ?? cause}`, {
      details: { migration },
      cause,
    });
  }
}

/**
 * The database cannot be reached or dropped the connection (a restart, a failover, an administrator
 * ending sessions), or its SQLite file stayed locked by another process past the busy timeout. Nothing is
 * wrong with the request: the same call succeeds once it is back.
 */
export class DatabaseUnavailableError extends SwitchyardError {
  override readonly name = 'DatabaseUnavailableError';
  constructor(cause: unknown) {
    super(`the database is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * A webhook endpoint's signing secret is stored encrypted and this process cannot decrypt it: it has no
 * WEBHOOK_SECRETS_KEY (`no-key`), or neither its key nor its previous key is the one that encrypted it, or
 * the stored value is damaged or was copied from another endpoint's row (`wrong-key`). A configuration
 * problem, or tampering: deliveries wait until every process has the right key.
 */
export class WebhookSecretUnreadableError extends SwitchyardError {
  override readonly name = 'WebhookSecretUnreadableError';
  constructor(
    readonly endpointId: number,
    readonly problem: 'no-key' | 'wrong-key',
    { withPreviousKey = false }: { withPreviousKey?: boolean } = {},
  ) {
    super(
      `webhook endpoint ${endpointId}: its signing secret is encrypted and ` +
        (problem === 'no-key' ? 'this process has no WEBHOOK_SECRETS_KEY' : wrongKey(withPreviousKey)) +
        '; every process of the deployment needs the same WEBHOOK_SECRETS_KEY',
      { details: { endpointId, problem } },
    );
  }
}

function wrongKey(withPreviousKey: boolean): string {
  const keys = withPreviousKey
    ? 'neither WEBHOOK_SECRETS_KEY nor WEBHOOK_SECRETS_PREVIOUS_KEY is'
    : 'WEBHOOK_SECRETS_KEY is not';
  return `${keys} the key it was encrypted with (or the stored value is damaged, or is another endpoint's)`;
}
