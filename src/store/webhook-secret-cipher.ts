/**
 * Webhook signing secrets at rest: AES-256-GCM under the deployment's WEBHOOK_SECRETS_KEY, stored as
 * `enc:v1:<iv>.<ciphertext>.<tag>` (base64url). The prefix makes a value self-describing, so a plain secret
 * stored before the key was set is told apart and still read, and a later scheme can sit beside `v1`.
 */
import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

/** What every encrypted value starts with, whatever its version: such a value is never encrypted again. */
const ENCRYPTED_PREFIX = 'enc:';
const V1_PREFIX = 'enc:v1:';
const ALGORITHM = 'aes-256-gcm';
/** GCM's 96-bit nonce, random per secret: a repeat is negligible at any number of endpoints. */
const IV_BYTES = 12;
/** GCM's full 128-bit tag: a shorter one weakens the check that the right key opened the value. */
const TAG_BYTES = 16;

export interface WebhookSecretCipher {
  encrypt(secret: string): string;
  /** The secret, or null when this key did not encrypt the value (another key, damage, unknown version). */
  decrypt(stored: string): string | null;
}

export function isEncryptedSecret(stored: string): boolean {
  return stored.startsWith(ENCRYPTED_PREFIX);
}

export function createWebhookSecretCipher(key: KeyObject): WebhookSecretCipher {
  return {
    encrypt(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return `${V1_PREFIX}${parts.join('.')}`;
    },
    decrypt(stored) {
      if (!stored.startsWith(V1_PREFIX)) return null;
      const parts = stored.slice(V1_PREFIX.length).split('.');
      if (parts.length !== 3) return null;
      const [iv, ciphertext, tag] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        // final() throws when the tag does not authenticate: another key, or a changed value.
        return null;
      }
    },
  };
}
