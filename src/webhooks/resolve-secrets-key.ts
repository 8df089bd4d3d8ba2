/**
 * WEBHOOK_SECRETS_KEY from the environment: the AES-256 key webhook signing secrets are encrypted with at
 * rest (src/store/webhook-secret-cipher.ts), 32 bytes written as 64 hex characters. Unset (or empty) means
 * secrets are stored plain. `switchyard serve`, `switchyard start` and `switchyard webhooks` all read it here.
 * A node:crypto KeyObject holds it, so a logged or inspected config never shows the bytes.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { ConfigError } from '../internal/errors.ts';

const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export function resolveWebhookSecretsKey(env: NodeJS.ProcessEnv): KeyObject | undefined {
  return resolveKeyVariable(env, 'WEBHOOK_SECRETS_KEY');
}

/**
 * WEBHOOK_SECRETS_PREVIOUS_KEY: the key being rotated out, read only by `webhooks encrypt-secrets`, which
 * re-encrypts under WEBHOOK_SECRETS_KEY every secret this key opens. Same form as WEBHOOK_SECRETS_KEY.
 */
export function resolveWebhookSecretsPreviousKey(env: NodeJS.ProcessEnv): KeyObject | undefined {
  return resolveKeyVariable(env, 'WEBHOOK_SECRETS_PREVIOUS_KEY');
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
