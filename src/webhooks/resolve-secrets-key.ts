/**
 * The webhook secrets' keys from the environment (src/store/webhook-secret-cipher.ts), each 32 bytes written
 * as 64 hex characters, resolved together so a half-set pair is refused before anything starts:
 *
 * - WEBHOOK_SECRETS_KEY encrypts every secret written and decrypts. Unset (or empty): secrets are stored plain.
 * - WEBHOOK_SECRETS_PREVIOUS_KEY, during a rotation, is the key being replaced: it only decrypts, so every
 *   process still reads the secrets under it until `webhooks encrypt-secrets` has moved them to the new key.
 *
 * `switchyard serve`, `switchyard start` and `switchyard webhooks` all read them here. node:crypto KeyObjects
 * hold them, so a logged or inspected config never shows the bytes.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { ConfigError } from '../internal/errors.ts';
import { checkWebhookSecretKeys, type WebhookSecretKeys } from '../store/webhook-secret-cipher.ts';

const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export function resolveWebhookSecretsKeys(env: NodeJS.ProcessEnv): WebhookSecretKeys {
  const keys = {
    key: resolveKeyVariable(env, 'WEBHOOK_SECRETS_KEY'),
    previousKey: resolveKeyVariable(env, 'WEBHOOK_SECRETS_PREVIOUS_KEY'),
  };
  checkWebhookSecretKeys(keys);
  return keys;
}

function resolveKeyVariable(env: NodeJS.ProcessEnv, name: string): KeyObject | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  // The value itself is never repeated in the message: it is meant to be a secret.
  if (!KEY_HEX.test(value))
    throw new ConfigError(
      `${name} must be 64 hex characters (32 bytes; \`openssl rand -hex 32\`), got ${value.length} characters` +
        (/^[0-9a-fA-F]*$/.test(value) ? '' : ' that are not all hex digits'),
    );
  return createSecretKey(Buffer.from(value, 'hex'));
}
