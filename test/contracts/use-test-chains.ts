/**
 * The anvil chains of a contract test's describe block: started together before its tests, stopped after
 * them, and (for tests that must not see each other) snapshotted around each test.
 */
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startTestChain, type TestChain } from '../harness/chain.ts';

/** One started chain per chain id, in the order of the ids. */
export type StartedChains<Ids extends readonly number[]> = { [K in keyof Ids]: TestChain };

/**
 * Starts one chain per id before the block's tests and stops them after. `onStart` receives the chains in
 * the order of `chainIds`, so the block can keep them in its own variables and prepare them (fund a
 * solver, deploy a contract) before any test or snapshot runs.
 */
export function useTestChains<const Ids extends readonly number[]>(
  chainIds: Ids,
  onStart: (chains: StartedChains<Ids>) => void | Promise<void>,
): void {
  let started: TestChain[] = [];
  beforeAll(async () => {
    started = await Promise.all(chainIds.map((chainId) => startTestChain({ chainId })));
    await onStart(started as StartedChains<Ids>);
  });
  afterAll(async () => {
    await Promise.all(started.map((chain) => chain.stop()));
  });
}

/**
 * Takes an `evm_snapshot` of every chain before each test and reverts to it after, so tests share one
 * deployment but never each other's state (balances, statuses, clocks). `chains` is read lazily because
 * the chains are started in `beforeAll`.
 */
export function snapshotEachTest(chains: () => readonly TestChain[]): void {
  let snapshots: { chain: TestChain; id: Hex }[] = [];
  beforeEach(async () => {
    snapshots = await Promise.all(
      chains().map(async (chain) => ({ chain, id: await chain.testClient.snapshot() })),
    );
  });
  afterEach(async () => {
    await Promise.all(snapshots.map(({ chain, id }) => chain.testClient.revert({ id })));
    snapshots = [];
  });
}

/** `useTestChains`, with every test starting from the state `onStart` left (see `snapshotEachTest`). */
export function useIsolatedTestChains<const Ids extends readonly number[]>(
  chainIds: Ids,
  onStart: (chains: StartedChains<Ids>) => void | Promise<void>,
): void {
  let started: readonly TestChain[] = [];
  useTestChains(chainIds, async (chains) => {
    started = chains;
    await onStart(chains);
  });
  snapshotEachTest(() => started);
}
