/** Builders for storage tests: realistic intents without a quote engine. */
import { randomBytes } from 'node:crypto';
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
