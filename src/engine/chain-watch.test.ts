import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../internal/logger.ts';
import { createChainWatch } from './chain-watch.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A watch over chain 1 whose head reads follow `heads` (an Error: the read fails), one per round; its restores
 * answer `outcomes` in turn (undefined: another worker is restoring the chain), then 0.
 */
async function watchThrough(
  heads: (bigint | Error)[],
  checkEveryMs = 60_000,
  outcomes: (number | undefined)[] = [],
): Promise<number[]> {
  const restores: number[] = [];
  let round = 0;
  const watch = createChainWatch({
    chainIds: [1],
    head: async () => {
      const h = heads[Math.min(round, heads.length - 1)]!;
      round++;
      if (h instanceof Error) throw h;
      return h;
    },
    sender: {
      restoreLost: async () => {
        restores.push(round);
        return outcomes.length > 0 ? outcomes.shift() : 0;
      },
    },
    log: createSilentLogger(),
    timing: { intervalMs: 5, checkEveryMs },
  });
  watch.start();
  while (round < heads.length + 2) await sleep(5);
  await watch.stop();
  return restores;
}

describe('chain watch', () => {
  it('restores at the first look, when the chain answers again, and when its head goes back', async () => {
    const down = new Error('ECONNREFUSED');
    // Rounds (1-based): 1 first look; 2–3 up; 4–5 down; 6 back; 7 up; 8 head back from 12 to 5.
    const restores = await watchThrough([10n, 11n, 12n, down, down, 12n, 12n, 5n, 6n]);
    expect(restores).toEqual([1, 6, 8]);
  });

  it('looks again at the next round while another worker holds the chain’s restore', async () => {
    // The first two watch rounds find the restore held by another worker (it may die before it is done); the third runs it here.
    const restores = await watchThrough([10n, 10n, 10n, 10n, 10n, 10n], 60_000, [undefined, undefined, 0]);
    expect(restores).toEqual([1, 2, 3]);
  });

  it('checks again every checkEveryMs while the chain looks healthy', async () => {
    const restores = await watchThrough(
      Array.from({ length: 20 }, (_, i) => BigInt(i)),
      0,
    );
    expect(restores.length).toBeGreaterThan(10);
  });

  it('stop() awaits the restore it started and starts none after', async () => {
    let calls = 0;
    let release = () => {};
    const watch = createChainWatch({
      chainIds: [1],
      head: async () => 1n,
      sender: {
        restoreLost: () => {
          calls++;
          return new Promise<number>((resolve) => {
            release = () => resolve(0);
          });
        },
      },
      log: createSilentLogger(),
      timing: { intervalMs: 5, checkEveryMs: 0 },
    });
    watch.start();
    while (calls === 0) await sleep(5);
    let stopped = false;
    const stopping = watch.stop().then(() => {
      stopped = true;
    });
    await sleep(50);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await sleep(50);
    expect(calls).toBe(1);
  });
});
