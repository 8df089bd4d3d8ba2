/**
 * Webhook signing secrets at rest: AES-256-GCM under the deployment's WEBHOOK_SECRETS_KEY, stored as
 * `enc:v2:<iv>.<ciphertext>.<tag>` (base64url), with the endpoint it belongs to (project, id, creation time)
 * as the additional authenticated data, so a value copied into another endpoint's row, or into a later row
 * that took a deleted endpoint's id, does not open there. `enc:v1:` values (the same without that binding)
 * are still read; `webhooks encrypt-secrets` rewrites them as `v2`. The prefix makes a value
 * self-describing, so a plain secret stored before the key was set is told apart and still read.
 *
 * A keyring holds the key secrets are written with and, while it is being rotated in, the one it replaces
 * (WEBHOOK_SECRETS_PREVIOUS_KEY), which only reads: every process opens both kinds of value until
 * `encrypt-secrets` has moved every secret to the new key.
 */
import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';
import { ConfigError } from '../internal/errors.ts';

/** What every encrypted value starts with, whatever its version: such a value is never encrypted again. */
const ENCRYPTED_PREFIX = 'enc:';
const V1_PREFIX = 'enc:v1:';
const V2_PREFIX = 'enc:v2:';
const ALGORITHM = 'aes-256-gcm';
/** GCM's 96-bit nonce, random per secret: a repeat is negligible at any number of endpoints. */
const IV_BYTES = 12;
/** GCM's full 128-bit tag: a shorter one weakens the check that the right key opened the value. */
const TAG_BYTES = 16;
/**
 * Starts every v2 value's additional data: names what is bound, so these bytes can never be taken for
 * another use of the same key.
 */
const V2_AAD_CONTEXT = 'switchyard webhook endpoint secret v2';

/**
 * The row a secret belongs to. All three are fixed for the row's lifetime: the id is its primary key, no
 * statement moves an endpoint to another project, and `created_at` is set once, by the insert. The id tells
 * live rows apart, but not a row from one deleted before it: SQLite (no AUTOINCREMENT) gives the next row the
 * highest deleted id again, so `createdAt` (milliseconds) tells a reused id apart and a deleted endpoint's
 * value (from an old backup) does not open in the row that took its id. The project id also makes a row
 * edited into another project (its events then signed with this secret) fail to open.
 */
export interface SecretOwner {
  id: number;
  projectId: number;
  /** The row's `created_at`, in milliseconds since the epoch. */
  createdAt: number;
}

export type SecretVersion = 'v1' | 'v2';

/** A value opened: the secret, which key opened it, and in which form it was stored. */
export interface OpenedSecret {
  secret: string;
  key: 'current' | 'previous';
  version: SecretVersion;
}

export interface WebhookSecretKeyring {
  /** Whether a key being rotated out (WEBHOOK_SECRETS_PREVIOUS_KEY) also opens values. */
  readonly hasPreviousKey: boolean;
  /** An `enc:v2:` value under the current key, bound to `owner`. */
  encrypt(secret: string, owner: SecretOwner): string;
  /** Null when neither key opens it for `owner` (another key, another row's value, damage, unknown version). */
  open(stored: string, owner: SecretOwner): OpenedSecret | null;
}

export interface WebhookSecretKeys {
  /** WEBHOOK_SECRETS_KEY: writes every secret, and reads. */
  key?: KeyObject | undefined;
  /** WEBHOOK_SECRETS_PREVIOUS_KEY: reads only. Meaningless without `key`. */
  previousKey?: KeyObject | undefined;
}

export function isEncryptedSecret(stored: string): boolean {
  return stored.startsWith(ENCRYPTED_PREFIX);
}

/** The keyring for these keys; undefined without a key (secrets are then written plain). */
export function createWebhookSecretKeyring({
  key,
  previousKey,
}: WebhookSecretKeys): WebhookSecretKeyring | undefined {
  checkWebhookSecretKeys({ key, previousKey });
  if (!key) return undefined;
  const keys = [['current', key] as const, ...(previousKey ? [['previous', previousKey] as const] : [])];
  return {
    hasPreviousKey: previousKey !== undefined,
    encrypt: (secret, owner) => seal(key, secret, owner),
    open(stored, owner) {
      for (const [name, k] of keys) {
        const opened = unseal(k, stored, owner);
        if (opened) return { ...opened, key: name };
      }
      return null;
    },
  };
}

/** A key that may only read, set without the key that writes: a half-done rotation, refused. */
export function checkWebhookSecretKeys({ key, previousKey }: WebhookSecretKeys): void {
  if (previousKey && !key)
    throw new ConfigError(
      'WEBHOOK_SECRETS_PREVIOUS_KEY is set without WEBHOOK_SECRETS_KEY: the previous key only reads secrets ' +
        'while WEBHOOK_SECRETS_KEY (the new key) writes them; set both, or drop WEBHOOK_SECRETS_PREVIOUS_KEY',
    );
}

/** The additional authenticated data binding a v2 value to its row. */
function ownerAad({ id, projectId, createdAt }: SecretOwner): Buffer {
  return Buffer.from(`${V2_AAD_CONTEXT}\0project ${projectId}\0endpoint ${id}\0created ${createdAt}`, 'utf8');
}

function seal(key: KeyObject, secret: string, owner: SecretOwner): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(ownerAad(owner));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return `${V2_PREFIX}${parts.join('.')}`;
}

function unseal(
  key: KeyObject,
  stored: string,
  owner: SecretOwner,
): { secret: string; version: SecretVersion } | null {
  const version = stored.startsWith(V2_PREFIX) ? 'v2' : stored.startsWith(V1_PREFIX) ? 'v1' : null;
  if (!version) return null;
  const parts = stored.slice((version === 'v2' ? V2_PREFIX : V1_PREFIX).length).split('.');
  if (parts.length !== 3) return null;
  const [iv, ciphertext, tag] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    // v1 values were written before secrets were bound to their row: they carry no additional data.
    if (version === 'v2') decipher.setAAD(ownerAad(owner));
    decipher.setAuthTag(tag);
    const secret = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    return { secret, version };
  } catch {
    // final() throws when the tag does not authenticate: another key, another row, or a changed value.
    return null;
  }
}
