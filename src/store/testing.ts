/** Builders for storage tests: realistic intents without a quote engine. */
import { createCipheriv, type KeyObject, randomBytes } from 'node:crypto';
import { DefaultQueryExecutor } from 'kysely';
import type { NewIntent } from './types.ts';

export function randomHex(bytes: number): string {
  return `0x${randomBytes(bytes).toString('hex')}`;
}

export const randomAddress = (): string => randomHex(20);
export const randomHash = (): string => randomHex(32);

export function newIntent(projectId: number, overrides: Partial<NewIntent> = {}): NewIntent {
  const intentId = overrides.intentId ?? randomHash();
  return {
    intentId,
    projectId,
    ownerAddress: randomAddress(),
    originChainId: 31_337,
    destinationChainId: 31_338,
    originIntentAddress: randomAddress(),
    destinationIntentAddress: randomAddress(),
    originTokenAddress: randomAddress(),
    originTokenAmount: 1_000_000n,
    destinationTokenAddress: randomAddress(),
    destinationTokenAmount: 990_000n,
    intent: { intentId, originTokenAmount: '1000000', destinationCalls: [] },
    quoteExpiresAt: new Date(Date.now() + 300_000),
    ...overrides,
  };
}

/**
 * The statements the store runs through Kysely while `run` runs (BEGIN and COMMIT of a transaction are not
 * counted): what a call costs in round trips.
 */
export async function statementsDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const executor = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as {
    executeQuery: (this: unknown, compiled: { sql: string }, ...rest: unknown[]) => unknown;
  };
  const original = executor.executeQuery;
  const statements: string[] = [];
  executor.executeQuery = function (this: unknown, compiled, ...rest) {
    statements.push(compiled.sql);
    return original.call(this, compiled, ...rest);
  };
  try {
    return { result: await run(), statements };
  } finally {
    executor.executeQuery = original;
  }
}

/**
 * An `enc:v1:` value as releases before `enc:v2:` wrote it (AES-256-GCM, no additional data), built here
 * independently of webhook-secret-cipher.ts, which no longer writes the form: what the store must still read.
 */
export function legacyV1Secret(key: KeyObject, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `enc:v1:${[iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.')}`;
}
