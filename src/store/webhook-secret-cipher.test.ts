import { createSecretKey, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { ConfigError } from '../internal/errors.ts';
import { legacyV1Secret } from './testing.ts';
import { createWebhookSecretKeyring, isEncryptedSecret } from './webhook-secret-cipher.ts';

const newKey = () => createSecretKey(randomBytes(32));
const key = newKey();
const keyring = createWebhookSecretKeyring({ key })!;
const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const OWNER = { id: 7, projectId: 3, createdAt: 1_764_000_000_000 };

it('round-trips a secret through enc:v2:<iv>.<ciphertext>.<tag> with a 12-byte IV and a 16-byte tag', () => {
  const stored = keyring.encrypt(SECRET, OWNER);
  expect(isEncryptedSecret(stored)).toBe(true);
  expect(isEncryptedSecret(SECRET)).toBe(false);
  const [iv, ciphertext, tag] = stored.slice('enc:v2:'.length).split('.');
  expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
  expect(Buffer.from(ciphertext!, 'base64url')).toHaveLength(Buffer.byteLength(SECRET));
  expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
  expect(keyring.open(stored, OWNER)).toEqual({ secret: SECRET, key: 'current', version: 'v2' });
});

it('opens nothing it did not seal: another key, a changed byte, a cut value, an unknown version', () => {
  const stored = keyring.encrypt(SECRET, OWNER);
  expect(createWebhookSecretKeyring({ key: newKey() })!.open(stored, OWNER)).toBeNull();
  const [iv, ciphertext, tag] = stored.slice('enc:v2:'.length).split('.') as [string, string, string];
  const flipped = Buffer.from(ciphertext, 'base64url');
  flipped[0]! ^= 1;
  expect(keyring.open(`enc:v2:${iv}.${flipped.toString('base64url')}.${tag}`, OWNER)).toBeNull();
  expect(keyring.open(`enc:v2:${iv}.${ciphertext}`, OWNER)).toBeNull();
  expect(keyring.open(`enc:v2:${iv}.${ciphertext}.${tag.slice(2)}`, OWNER)).toBeNull();
  expect(keyring.open(stored.replace('enc:v2:', 'enc:v3:'), OWNER)).toBeNull();
  // A v2 value relabelled v1 drops its binding: refused too, since its tag covers the endpoint.
  expect(keyring.open(stored.replace('enc:v2:', 'enc:v1:'), OWNER)).toBeNull();
});

it('a v2 value opens only for the endpoint it was sealed for: another id, or another project, is refused', () => {
  const stored = keyring.encrypt(SECRET, OWNER);
  expect(keyring.open(stored, { ...OWNER, id: OWNER.id + 1 })).toBeNull();
  expect(keyring.open(stored, { ...OWNER, projectId: OWNER.projectId + 1 })).toBeNull();
  // Neither is one number's digits moving to the other: "project 3 endpoint 17" is not "project 31 endpoint 7".
  const seventeen = keyring.encrypt(SECRET, { ...OWNER, id: 17, projectId: 3 });
  expect(keyring.open(seventeen, { ...OWNER, id: 7, projectId: 31 })).toBeNull();
});

it('a v2 value does not open for the same id and project with another creation time (an id reused after a delete)', () => {
  const stored = keyring.encrypt(SECRET, OWNER);
  expect(keyring.open(stored, { ...OWNER, createdAt: OWNER.createdAt + 1 })).toBeNull();
  expect(keyring.open(stored, { ...OWNER, createdAt: OWNER.createdAt - 60_000 })).toBeNull();
  expect(keyring.open(stored, { ...OWNER })).toEqual({ secret: SECRET, key: 'current', version: 'v2' });
  // Nor do digits move between the endpoint id and the creation time: "endpoint 71 created 2" is not "endpoint 7 created 12".
  const seventyOne = keyring.encrypt(SECRET, { ...OWNER, id: 71, createdAt: 2 });
  expect(keyring.open(seventyOne, { ...OWNER, id: 7, createdAt: 12 })).toBeNull();
});

it('reads an enc:v1: value written before values were bound to their endpoint, for any endpoint', () => {
  const v1 = legacyV1Secret(key, SECRET);
  expect(keyring.open(v1, OWNER)).toEqual({ secret: SECRET, key: 'current', version: 'v1' });
  expect(keyring.open(v1, { id: 99, projectId: 1, createdAt: 5 })).toMatchObject({
    secret: SECRET,
    version: 'v1',
  });
  expect(createWebhookSecretKeyring({ key: newKey() })!.open(v1, OWNER)).toBeNull();
});

it('with a previous key: writes with the current key only, reads with either and says which opened it', () => {
  const previousKey = newKey();
  const rotating = createWebhookSecretKeyring({ key, previousKey })!;
  const underPrevious = createWebhookSecretKeyring({ key: previousKey })!.encrypt(SECRET, OWNER);
  expect(rotating.hasPreviousKey).toBe(true);
  expect(keyring.hasPreviousKey).toBe(false);
  expect(rotating.open(underPrevious, OWNER)).toEqual({ secret: SECRET, key: 'previous', version: 'v2' });
  expect(rotating.open(legacyV1Secret(previousKey, SECRET), OWNER)).toEqual({
    secret: SECRET,
    key: 'previous',
    version: 'v1',
  });
  expect(keyring.open(underPrevious, OWNER)).toBeNull();
  expect(rotating.open(underPrevious, { ...OWNER, id: 8 })).toBeNull();
  const written = rotating.encrypt(SECRET, OWNER);
  expect(keyring.open(written, OWNER)).toEqual({ secret: SECRET, key: 'current', version: 'v2' });
  expect(createWebhookSecretKeyring({ key: previousKey })!.open(written, OWNER)).toBeNull();
});

it('no key is no keyring; a previous key without the current one is refused, naming both variables', () => {
  expect(createWebhookSecretKeyring({})).toBeUndefined();
  const alone = () => createWebhookSecretKeyring({ previousKey: newKey() });
  expect(alone).toThrow(ConfigError);
  expect(alone).toThrow(/^WEBHOOK_SECRETS_PREVIOUS_KEY is set without WEBHOOK_SECRETS_KEY/);
});
