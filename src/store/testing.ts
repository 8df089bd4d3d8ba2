/** Builders for storage tests: realistic intents without a quote engine. */
import { randomBytes } from 'node:crypto';
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
