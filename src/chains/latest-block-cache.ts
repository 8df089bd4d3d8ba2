/**
 * The latest block of each chain, shared for LATEST_BLOCK_CACHE_MS: the fee caps (base fee) and the
 * engine's deadline checks (block time) of every send and step in that window take it from one read
 * instead of one eth_getBlockByNumber each. Concurrent callers share one read in flight; a failed read is
 * not kept. Its time is at most that much behind the chain's, which deadlines of minutes do not notice
 * (the contracts enforce them exactly anyway).
 */
import type { Block, PublicClient } from 'viem';
import { withChainErrors } from './map-chain-error.ts';
import { LATEST_BLOCK_CACHE_MS } from './sender-constants.ts';
import { createTtlMemo } from './ttl-memo.ts';

export interface LatestBlockCache {
  get(chainId: number): Promise<Block>;
}

export function createLatestBlockCache(
  clientFor: (chainId: number) => PublicClient,
  ttlMs: number = LATEST_BLOCK_CACHE_MS,
  now: () => number = Date.now,
): LatestBlockCache {
  const memo = createTtlMemo<number, Block>(ttlMs, now);
  return {
    get: (chainId) =>
      memo.get(chainId, () => withChainErrors(() => clientFor(chainId).getBlock({ blockTag: 'latest' }))),
  };
}
