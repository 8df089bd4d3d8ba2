/**
 * One head poll per chain shared by every transaction waiting there: a waiting send looks for its receipt
 * once per new block instead of on a timer, so it notices its block within HEAD_POLL_MS (one cheap
 * eth_blockNumber per chain, however many sends wait) rather than within its own receipt poll interval.
 * A chain is polled only while someone waits on it.
 */
import type { PublicClient } from 'viem';
import { HEAD_POLL_MS } from './sender-constants.ts';

export interface HeadWatcher {
  /** The newest head seen on this chain, or undefined before the first poll. */
  head(chainId: number): bigint | undefined;
  /** Resolves once a head above `seen` is observed (at once if `seen` is undefined), or after `maxWaitMs`. */
  waitPast(chainId: number, seen: bigint | undefined, maxWaitMs: number): Promise<void>;
}

interface ChainWatch {
  head?: bigint;
  waiters: Set<{ above: bigint | undefined; wake: () => void }>;
  polling: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createHeadWatcher(
  clientFor: (chainId: number) => PublicClient,
  pollMs: number = HEAD_POLL_MS,
): HeadWatcher {
  const chains = new Map<number, ChainWatch>();
  const watchOf = (chainId: number): ChainWatch => {
    let watch = chains.get(chainId);
    if (!watch) {
      watch = { waiters: new Set(), polling: false };
      chains.set(chainId, watch);
    }
    return watch;
  };

  async function poll(chainId: number, watch: ChainWatch): Promise<void> {
    watch.polling = true;
    try {
      while (watch.waiters.size > 0) {
        // Errors are left to the waiters' own reads (they surface as chain errors there); the poll goes on.
        const head = await clientFor(chainId)
          .getBlockNumber({ cacheTime: 0 })
          .catch(() => undefined);
        if (head !== undefined && (watch.head === undefined || head > watch.head)) watch.head = head;
        for (const waiter of watch.waiters) {
          if (watch.head !== undefined && (waiter.above === undefined || watch.head > waiter.above))
            waiter.wake();
        }
        if (watch.waiters.size > 0) await sleep(pollMs);
      }
    } finally {
      watch.polling = false;
    }
  }

  return {
    head: (chainId) => chains.get(chainId)?.head,
    waitPast(chainId, seen, maxWaitMs) {
      const watch = watchOf(chainId);
      return new Promise<void>((resolve) => {
        const waiter = {
          above: seen,
          wake: () => {
            clearTimeout(timer);
            watch.waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.wake, maxWaitMs);
        watch.waiters.add(waiter);
        if (!watch.polling) void poll(chainId, watch);
      });
    },
  };
}
