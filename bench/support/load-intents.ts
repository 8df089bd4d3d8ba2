/** Loads a benchmark server's store with intents, before the server starts. */

import { BENCH_CHAINS, BENCH_USDC } from '../fixtures/chains.ts';
import type { IntentFixture } from '../fixtures/wire-intent.ts';
import { intentFixture, pooledRandomHex } from '../fixtures/wire-intent.ts';

/**
 * Intents inserted side by side while loading: one after another, 2,000 took over the 120 s phase limit
 * on a loaded Postgres; the store's pool has 10 connections.
 */
const INSERT_CONCURRENCY = 10;

/**
 * `count` intents from the first bench chain to the second (USDC to USDC), each stored by `insertOne`,
 * INSERT_CONCURRENCY at a time; answers their ids.
 */
export async function loadIntents(
  projectId: number,
  count: number,
  insertOne: (intent: IntentFixture['intent']) => Promise<void>,
): Promise<string[]> {
  const hex = pooledRandomHex();
  const [alpha, beta] = BENCH_CHAINS as [(typeof BENCH_CHAINS)[0], (typeof BENCH_CHAINS)[0]];
  const loadOne = async (): Promise<string> => {
    const { intent } = intentFixture(
      {
        projectId,
        originChainId: alpha.chainId,
        destinationChainId: beta.chainId,
        originTokenAddress: BENCH_USDC,
        destinationTokenAddress: BENCH_USDC,
      },
      hex,
    );
    await insertOne(intent);
    return intent.intentId;
  };
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = Math.min(INSERT_CONCURRENCY, count - ids.length);
    ids.push(...(await Promise.all(Array.from({ length: batch }, loadOne))));
  }
  return ids;
}
