import { createSecretKey, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createWebhookSecretCipher, isEncryptedSecret } from './webhook-secret-cipher.ts';

const cipher = createWebhookSecretCipher(createSecretKey(randomBytes(32)));
const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

it('round-trips a secret through enc:v1:<iv>.<ciphertext>.<tag> with a 12-byte IV and a 16-byte tag', () => {
  const stored = cipher.encrypt(SECRET);
  expect(isEncryptedSecret(stored)).toBe(true);
  expect(isEncryptedSecret(SECRET)).toBe(false);
  const [iv, ciphertext, tag] = stored.slice('enc:v1:'.length).split('.');
  expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
  expect(Buffer.from(ciphertext!, 'base64url')).toHaveLength(Buffer.byteLength(SECRET));
  expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
  expect(cipher.decrypt(stored)).toBe(SECRET);
});

it('opens nothing it did not seal: another key, a changed byte, a cut value, an unknown version', () => {
  const stored = cipher.encrypt(SECRET);
  const other = createWebhookSecretCipher(createSecretKey(randomBytes(32)));
  expect(other.decrypt(stored)).toBeNull();
  const [iv, ciphertext, tag] = stored.slice('enc:v1:'.length).split('.') as [string, string, string];
  const flipped = Buffer.from(ciphertext, 'base64url');
  flipped[0]! ^= 1;
  expect(cipher.decrypt(`enc:v1:${iv}.${flipped.toString('base64url')}.${tag}`)).toBeNull();
  expect(cipher.decrypt(`enc:v1:${iv}.${ciphertext}`)).toBeNull();
  expect(cipher.decrypt(`enc:v1:${iv}.${ciphertext}.${tag.slice(2)}`)).toBeNull();
  expect(cipher.decrypt(stored.replace('enc:v1:', 'enc:v2:'))).toBeNull();
});
