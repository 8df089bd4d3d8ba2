/**
 * When each block of a chain first appeared, as seen by polling its head: lets the 1-second-block run
 * count how many destination blocks an intent took after its deposit's block, across two chains whose
 * block numbers do not line up.
 */
import type { PublicClient } from 'viem';

/** Head poll (ms): well under a block, so a block's first-seen time is off by at most this. */
const HEAD_POLL_MS = 20;

export interface BlockClock {
  /** When block `n` was first seen (performance.now() ms); undefined if never seen. */
  seenAt(n: bigint): number | undefined;
  /** The highest block seen at or before `time`. */
  headAt(time: number): bigint;
  stop(): void;
}

export async function startBlockClock(client: PublicClient): Promise<BlockClock> {
  const seen: { n: bigint; at: number }[] = [];
  let stopped = false;
  const record = async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const at = performance.now();
    const last = seen.at(-1)?.n ?? head - 1n;
    // Blocks mined between two polls are dated at the poll that saw them.
    for (let n = last + 1n; n <= head; n++) seen.push({ n, at });
  };
  await record();
  const loop = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, HEAD_POLL_MS));
      await record().catch(() => {});
    }
  };
  void loop();
  return {
    seenAt: (n) => seen.find((b) => b.n === n)?.at,
    headAt(time) {
      let head = seen[0]?.n ?? 0n;
      for (const b of seen) if (b.at <= time) head = b.n;
      return head;
    },
    stop() {
      stopped = true;
    },
  };
}
