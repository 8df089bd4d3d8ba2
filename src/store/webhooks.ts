/**
 * Webhook endpoints and their delivery log (migration 0010). The event log is the outbox: an endpoint only
 * holds its cursor into it and its retry state. The dispatcher leases endpoints (at most one holder each;
 * SKIP LOCKED on Postgres), and every write it makes afterwards checks that it still holds the lease, so a
 * process that lost it (it stalled past the lease, another took over) cannot move the cursor.
 *
 * Secrets are encrypted as they are written when the store has WEBHOOK_SECRETS_KEY (webhook-secret-cipher.ts),
 * bound to their row, and decrypted only when an endpoint's secret is read (`readSecret`), so a process
 * without the key can still list and lease endpoints, and fails only where it would sign.
 */
import type { Kysely } from 'kysely';
import { ConfigError } from '../internal/errors.ts';
import type { StoreContext } from './context.ts';
import { WebhookSecretUnreadableError } from './errors.ts';
import { toDate } from './rows.ts';
import type { Database, WebhookDeliveryRow, WebhookEndpointRow } from './schema.ts';
import type {
  SecretsEncrypted,
  WebhookDelivery,
  WebhookDeliveryInput,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointState,
  WebhooksRepo,
} from './types.ts';
import { isEncryptedSecret, type SecretOwner, type WebhookSecretKeyring } from './webhook-secret-cipher.ts';

/** Delivery records looked at per retention batch: the head of the log, by id. */
const HEAD_PAGE = 1_000;
const HTTP_SUCCESS_MIN = 200;
const HTTP_SUCCESS_MAX = 299;
/**
 * The secret column of a row being added under a key, for the moment between its insert (which gives the id
 * and `created_at` the value is bound to) and the update that stores the value, inside one transaction.
 * Encrypted in form, so were it ever read, it would be refused, never signed with.
 */
const SECRET_PENDING = 'enc:pending';

export interface WebhooksRepoDeps {
  /**
   * Encrypts secrets as they are written and decrypts them as they are read (WEBHOOK_SECRETS_KEY, and
   * WEBHOOK_SECRETS_PREVIOUS_KEY during a rotation). Without it secrets are written plain, and an encrypted
   * one cannot be read.
   */
  secrets?: WebhookSecretKeyring | undefined;
}

export function createWebhooksRepo(ctx: StoreContext, deps: WebhooksRepoDeps = {}): WebhooksRepo {
  const { db, capabilities } = ctx;
  const { secrets } = deps;
  const now = () => ctx.now().getTime();

  // A plain secret (stored before the key was set) is read as it is, so turning the key on breaks nothing.
  const readSecret = (owner: SecretOwner, stored: string): string => {
    if (!isEncryptedSecret(stored)) return stored;
    if (!secrets) throw new WebhookSecretUnreadableError(owner.id, 'no-key');
    const opened = secrets.open(stored, owner);
    if (opened === null)
      throw new WebhookSecretUnreadableError(owner.id, 'wrong-key', {
        withPreviousKey: secrets.hasPreviousKey,
      });
    return opened.secret;
  };

  const endpointFromRow = (row: WebhookEndpointRow): WebhookEndpoint => ({
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    readSecret: () => readSecret(secretOwner(row), row.secret),
    eventTypes: row.event_types.split(','),
    state: row.state as WebhookEndpointState,
    handledSeq: Number(row.handled_seq),
    attempts: row.attempts,
    failingSince: toDate(row.failing_since),
    nextAttemptAt: toDate(row.next_attempt_at),
    createdAt: toDate(row.created_at),
  });

  const insertDelivery = (q: Kysely<Database>, endpointId: number, d: WebhookDeliveryInput, at: number) =>
    q
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpointId,
        event_seq: d.eventSeq,
        event_type: d.eventType,
        attempt: d.attempt,
        status_code: d.statusCode,
        error: d.error,
        latency_ms: Math.round(d.latencyMs),
        created_at: at,
      })
      .execute();

  const insertEndpoint = (q: Kysely<Database>, input: WebhookEndpointInput, storedSecret: string) => {
    const { projectId, url, eventTypes } = input;
    const at = now();
    return q
      .insertInto('webhook_endpoints')
      .values((eb) => ({
        project_id: projectId,
        url,
        secret: storedSecret,
        event_types: eventTypes.join(','),
        state: 'active',
        handled_seq: eb.fn.coalesce(
          eb.selectFrom('event_sequences').select('last_seq').where('project_id', '=', projectId),
          eb.lit(0),
        ),
        attempts: 0,
        failing_since: null,
        next_attempt_at: at,
        lease_owner: null,
        lease_until: null,
        created_at: at,
        updated_at: at,
      }))
      .returningAll()
      .executeTakeFirstOrThrow();
  };

  return {
    async create(input) {
      if (!secrets) return endpointFromRow(await insertEndpoint(db, input, input.secret));
      const keyring = secrets;
      // The value is bound to the row's id and created_at as the insert wrote them (read back from it, not
      // recomputed): both writes commit together.
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await insertEndpoint(trx, input, SECRET_PENDING);
        const secret = keyring.encrypt(input.secret, secretOwner(inserted));
        await trx.updateTable('webhook_endpoints').set({ secret }).where('id', '=', inserted.id).execute();
        return { ...inserted, secret };
      });
      return endpointFromRow(row);
    },

    async list(projectId) {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('id')
        .execute();
      return Promise.all(
        rows.map(async (row) => {
          const last = await db
            .selectFrom('webhook_deliveries')
            .selectAll()
            .where('endpoint_id', '=', row.id)
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst();
          return { ...endpointFromRow(row), lastDelivery: last ? deliveryFromRow(last) : null };
        }),
      );
    },

    async get({ projectId, id }) {
      const row = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && endpointFromRow(row);
    },

    remove: ({ projectId, id }) =>
      db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('project_id', '=', projectId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!owned) return false;
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
        return true;
      }),

    async anyActive() {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('state', '=', 'active')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async leaseDue({ owner, leaseMs, limit, now: at }) {
      const time = (at ?? ctx.now()).getTime();
      const due = db
        .selectFrom('webhook_endpoints as e')
        .innerJoin('event_sequences as s', 's.project_id', 'e.project_id')
        .select('e.id')
        .where('e.state', '=', 'active')
        .where('e.next_attempt_at', '<=', time)
        .whereRef('e.handled_seq', '<', 's.last_seq')
        .where((eb) => eb.or([eb('e.lease_until', 'is', null), eb('e.lease_until', '<', time)]))
        .orderBy('e.next_attempt_at')
        .limit(limit)
        // Postgres: concurrent dispatchers pass over each other's rows. SQLite: one writer at a time.
        .$if(capabilities.supportsSkipLocked, (q) => q.forUpdate('e').skipLocked());
      const rows = await db
        .updateTable('webhook_endpoints')
        .set({ lease_owner: owner, lease_until: time + leaseMs, updated_at: time })
        .where('id', 'in', due)
        .returningAll()
        .execute();
      return rows.map(endpointFromRow);
    },

    advance: ({ id, owner, handledSeq, leaseMs, delivery }) => {
      const write = async (q: Kysely<Database>) => {
        const at = now();
        const result = await q
          .updateTable('webhook_endpoints')
          .set({
            handled_seq: handledSeq,
            lease_until: at + leaseMs,
            updated_at: at,
            ...(delivery && { attempts: 0, failing_since: null }),
          })
          .where('id', '=', id)
          .where('lease_owner', '=', owner)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        if (delivery) await insertDelivery(q, id, delivery, at);
        return true;
      };
      // The delivery's record and the cursor past it commit together.
      return delivery ? db.transaction().execute(write) : write(db);
    },

    recordFailure: ({ id, owner, delivery, failingSince, retryAt }) =>
      db.transaction().execute(async (trx) => {
        const at = now();
        const result = await trx
          .updateTable('webhook_endpoints')
          .set((eb) => ({
            attempts: eb('attempts', '+', 1),
            failing_since: failingSince.getTime(),
            state: retryAt === null ? 'failing' : 'active',
            next_attempt_at: retryAt?.getTime() ?? at,
            lease_owner: null,
            lease_until: null,
            updated_at: at,
          }))
          .where('id', '=', id)
          .where('lease_owner', '=', owner)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await insertDelivery(trx, id, delivery, at);
        return true;
      }),

    async release({ id, owner }) {
      await db
        .updateTable('webhook_endpoints')
        .set({ lease_owner: null, lease_until: null, updated_at: now() })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    },

    async leaseOwners() {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .select('lease_owner')
        .distinct()
        .where('lease_owner', 'is not', null)
        .execute();
      return rows.map((r) => r.lease_owner!);
    },

    async endLeases({ owners, now: at }) {
      if (owners.length === 0) return 0;
      const time = (at ?? ctx.now()).getTime();
      // Below now, as a lease that ran out: leaseDue takes an endpoint whose lease_until is below its now.
      const result = await db
        .updateTable('webhook_endpoints')
        .set({ lease_until: time - 1, updated_at: time })
        .where('lease_owner', 'in', owners)
        .where('lease_until', '>=', time)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async recordDelivery({ endpointId, delivery }) {
      await insertDelivery(db, endpointId, delivery, now());
    },

    async reactivate({ projectId, id, handledSeq }) {
      const at = now();
      const result = await db
        .updateTable('webhook_endpoints')
        .set({
          state: 'active',
          attempts: 0,
          failing_since: null,
          next_attempt_at: at,
          updated_at: at,
          ...(handledSeq !== undefined && { handled_seq: handledSeq }),
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async deliveries({ endpointId, limit }) {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(deliveryFromRow);
    },

    async encryptSecrets() {
      if (!secrets)
        throw new ConfigError(
          'WEBHOOK_SECRETS_KEY is not set: there is no key to encrypt webhook secrets with ' +
            '(32 bytes as 64 hex characters; `openssl rand -hex 32`)',
        );
      const rows = await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'project_id', 'created_at', 'secret'])
        .orderBy('id')
        .execute();
      const done: SecretsEncrypted = { encrypted: 0, reencrypted: 0, upgraded: 0, unreadable: [] };
      for (const row of rows) {
        const step = secretStep(secrets, row);
        if (step === 'unreadable') done.unreadable.push(row.id);
        if (step === 'unreadable' || step === 'current') continue;
        const owner = secretOwner(row);
        // Only the value read: a secret changed meanwhile (another run) is left to that writer.
        const result = await db
          .updateTable('webhook_endpoints')
          .set({ secret: secrets.encrypt(step.secret, owner), updated_at: now() })
          .where('id', '=', row.id)
          .where('secret', '=', row.secret)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) done[step.count] += 1;
      }
      return done;
    },

    async deleteDeliveriesOlderThan({ before, limit }) {
      // The oldest records come first by id: reading the head, never scanning the log for old rows.
      const head = await db
        .selectFrom('webhook_deliveries')
        .select(['id', 'created_at'])
        .orderBy('id')
        .limit(Math.min(HEAD_PAGE, limit))
        .execute();
      const young = head.findIndex((row) => Number(row.created_at) >= before.getTime());
      const last = young === -1 ? head.at(-1) : head[young - 1];
      if (!last) return 0;
      const result = await db
        .deleteFrom('webhook_deliveries')
        .$if(!capabilities.supportsSkipLocked, (q) => q.where('id', '<=', last.id))
        .$if(capabilities.supportsSkipLocked, (q) =>
          q.where('id', 'in', (eb) =>
            eb
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('id', '<=', last.id)
              .forUpdate()
              .skipLocked(),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

type SecretStep =
  | 'current'
  | 'unreadable'
  | { secret: string; count: keyof Omit<SecretsEncrypted, 'unreadable'> };

/**
 * What encryptSecrets does with one row: nothing (`enc:v2:` under the current key already), name it (no key
 * opens it), or rewrite it, counted by where it came from.
 */
function secretStep(
  keyring: WebhookSecretKeyring,
  row: Pick<WebhookEndpointRow, 'id' | 'project_id' | 'created_at' | 'secret'>,
): SecretStep {
  if (!isEncryptedSecret(row.secret)) return { secret: row.secret, count: 'encrypted' };
  const opened = keyring.open(row.secret, secretOwner(row));
  if (!opened) return 'unreadable';
  if (opened.key === 'previous') return { secret: opened.secret, count: 'reencrypted' };
  return opened.version === 'v2' ? 'current' : { secret: opened.secret, count: 'upgraded' };
}

/** The row a secret is bound to: its id, project and creation time, none of which ever changes. */
function secretOwner(row: Pick<WebhookEndpointRow, 'id' | 'project_id' | 'created_at'>): SecretOwner {
  // Number(), as toDate does: the same digits in the additional data whatever form a driver reads them in.
  return { id: row.id, projectId: row.project_id, createdAt: Number(row.created_at) };
}

function deliveryFromRow(row: WebhookDeliveryRow): WebhookDelivery {
  const status = row.status_code;
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventSeq: Number(row.event_seq),
    eventType: row.event_type,
    attempt: row.attempt,
    statusCode: status,
    error: row.error,
    latencyMs: row.latency_ms,
    ok: status !== null && status >= HTTP_SUCCESS_MIN && status <= HTTP_SUCCESS_MAX,
    createdAt: toDate(row.created_at),
  };
}
