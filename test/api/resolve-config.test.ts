/**
 * `switchyard serve` configuration (src/api/resolve-config.ts): the per-chain `destinationBehindFill` switch
 * and `rpcBatchSize`, the pool size and the step lease take their defaults when the file does not say, are
 * taken as given when it does, and a bad value stops start-up with an error naming the field.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/internal/errors.ts';
import { configChain, resolveConfigFile } from '../harness/config-file.ts';

const chain = configChain;
const resolveWith = (chains: unknown[]) => resolveConfigFile({ chains });

describe('resolveConfig: destinationBehindFill', () => {
  it('is off when a chain does not say, and as given when it does', () => {
    const config = resolveWith([
      chain(1),
      chain(2, { destinationBehindFill: true }),
      chain(3, { destinationBehindFill: false }),
    ]);
    expect(config.chains.map((c) => c.destinationBehindFill)).toEqual([false, true, false]);
  });

  it('rejects a value that is not a boolean, naming the field', () => {
    const bad = () => resolveWith([chain(1), chain(2, { destinationBehindFill: 'yes' })]);
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/chains\[1\]\.destinationBehindFill: must be true or false/);
  });
});

describe('resolveConfig: rpcBatchSize', () => {
  it('is 1 (no JSON-RPC batches) when a chain does not say, and as given when it does', () => {
    const config = resolveWith([chain(1), chain(2, { rpcBatchSize: 32 })]);
    expect(config.chains.map((c) => c.rpcBatchSize)).toEqual([1, 32]);
  });

  it.each([0, 2.5, '32', 1001])('rejects %j, naming the field', (value) => {
    const bad = () => resolveWith([chain(1, { rpcBatchSize: value })]);
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/chains\[0\]\.rpcBatchSize: must be a whole number from 1 to 1000/);
  });
});

describe('resolveConfig: databasePoolSize', () => {
  const resolveFrom = (file: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
    resolveConfigFile({ chains: [chain(1)], ...file }, env);

  it('is unset (the store’s default) unless the file or DATABASE_POOL_SIZE says; the file wins', () => {
    expect(resolveFrom({}).databasePoolSize).toBeUndefined();
    expect(resolveFrom({}, { DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(resolveFrom({ databasePoolSize: 25 }, { DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(25);
  });

  it('rejects a size that is not a whole number from 1 to 1000, naming the field', () => {
    expect(() => resolveFrom({ databasePoolSize: 0 })).toThrow(
      /databasePoolSize: must be a whole number from 1 to 1000/,
    );
    expect(() => resolveFrom({ databasePoolSize: 2.5 })).toThrow(ConfigError);
    expect(() => resolveFrom({}, { DATABASE_POOL_SIZE: 'ten' })).toThrow(
      /DATABASE_POOL_SIZE: must be a whole number from 1 to 1000, not 'ten'/,
    );
  });
});

describe('resolveConfig: stepLeaseMs', () => {
  const resolveFrom = (file: Record<string, unknown>) => resolveConfigFile({ chains: [chain(1)], ...file });

  it('is unset (the engine’s default lease) unless the file says', () => {
    expect(resolveFrom({}).stepLeaseMs).toBeUndefined();
    expect(resolveFrom({ stepLeaseMs: 3000 }).stepLeaseMs).toBe(3000);
  });

  it.each([999, 2.5, '3000', 3_600_001])('rejects %j, naming the field', (value) => {
    expect(() => resolveFrom({ stepLeaseMs: value })).toThrow(
      /stepLeaseMs: must be a whole number of ms from 1000 to 3600000/,
    );
  });
});

describe('resolveConfig: WEBHOOK_SECRETS_KEY', () => {
  const KEY = 'a1'.repeat(32);
  const resolveFrom = (env: NodeJS.ProcessEnv) => resolveConfigFile({ chains: [chain(1)] }, env);

  it('is unset without the variable (or when it is empty), and a 32-byte key when it is 64 hex characters', () => {
    expect(resolveFrom({}).webhookSecretsKey).toBeUndefined();
    expect(resolveFrom({ WEBHOOK_SECRETS_KEY: '' }).webhookSecretsKey).toBeUndefined();
    const key = resolveFrom({ WEBHOOK_SECRETS_KEY: KEY }).webhookSecretsKey;
    expect(key?.type).toBe('secret');
    expect(key?.symmetricKeySize).toBe(32);
    expect(key?.export().toString('hex')).toBe(KEY);
  });

  it.each([
    ['too short', KEY.slice(0, 62)],
    ['too long', `${KEY}00`],
    ['not hex', `${KEY.slice(0, 62)}zz`],
    ['base64 of 32 bytes', Buffer.alloc(32, 7).toString('base64')],
  ])('refuses a key %s, naming the variable and the form, without repeating the value', (_, value) => {
    const bad = () => resolveFrom({ WEBHOOK_SECRETS_KEY: value });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(
      /^WEBHOOK_SECRETS_KEY must be 64 hex characters \(32 bytes; `openssl rand -hex 32`\), got \d+ characters/,
    );
    expect(bad).not.toThrow(value);
  });

  it('reads WEBHOOK_SECRETS_PREVIOUS_KEY beside the key; refuses it alone, or malformed, naming it', () => {
    const PREVIOUS = 'b2'.repeat(32);
    const both = resolveFrom({ WEBHOOK_SECRETS_KEY: KEY, WEBHOOK_SECRETS_PREVIOUS_KEY: PREVIOUS });
    expect(both.webhookSecretsKey?.export().toString('hex')).toBe(KEY);
    expect(both.webhookSecretsPreviousKey?.export().toString('hex')).toBe(PREVIOUS);
    expect(resolveFrom({ WEBHOOK_SECRETS_KEY: KEY }).webhookSecretsPreviousKey).toBeUndefined();
    const alone = () => resolveFrom({ WEBHOOK_SECRETS_PREVIOUS_KEY: PREVIOUS });
    expect(alone).toThrow(ConfigError);
    expect(alone).toThrow(/^WEBHOOK_SECRETS_PREVIOUS_KEY is set without WEBHOOK_SECRETS_KEY/);
    const malformed = () => resolveFrom({ WEBHOOK_SECRETS_KEY: KEY, WEBHOOK_SECRETS_PREVIOUS_KEY: 'x' });
    expect(malformed).toThrow(/^WEBHOOK_SECRETS_PREVIOUS_KEY must be 64 hex characters/);
  });
});

describe('resolveConfig: ports fetch refuses', () => {
  it('rejects an RPC URL on a port fetch refuses, naming the field and the port', () => {
    const bad = () =>
      resolveWith([chain(1), chain(2, { rpcUrls: ['http://127.0.0.1:8545', 'http://127.0.0.1:10080'] })]);
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/chains\[1\]\.rpcUrls\[1\]: port 10080 is one fetch refuses/);
  });

  it('rejects an API port fetch refuses, and takes an ordinary one', () => {
    const withPort = (port: number) => resolveConfigFile({ chains: [chain(1)], port });
    expect(() => withPort(6000)).toThrow(/port: 6000 is a port fetch refuses/);
    expect(withPort(8788).port).toBe(8788);
  });
});
