/**
 * How to share one swap leg across up to three pool paths that share no pool: the amount is cut into equal
 * chunks and each chunk goes, one after the other, to the path where it adds the most output (EXACT_INPUT)
 * or costs the least input (EXACT_OUTPUT) given what that path already carries. A pool's output is concave
 * in its input, so this marginal greedy finds the best split at the chunk's resolution. Each step simulates
 * only the path that took the last chunk: about paths + chunks simulations (paths memoise their quotes).
 */
import type { SwapPath, TradeType } from '../../providers/types.ts';

/** Chunks an order is cut into for splitting: 5 % steps; a finer cut gained under 0.01 % on the devnet's pools. */
export const SPLIT_CHUNKS = 20n;
/** Most paths one leg is split across (the bound; each part costs a swap's gas). */
export const MAX_SPLIT_PARTS = 3;

/** The amount each path carries (same order as `paths`, zero for a path left out), or undefined if none can. */
export async function splitAmount(
  paths: readonly SwapPath[],
  tradeType: TradeType,
  amount: bigint,
): Promise<bigint[] | undefined> {
  const at = (k: bigint) => (amount * k) / SPLIT_CHUNKS;
  // What k chunks on path i are worth: output for EXACT_INPUT, minus the input for EXACT_OUTPUT (higher is better).
  const worth = async (i: number, k: bigint): Promise<bigint | undefined> => {
    if (k === 0n) return 0n;
    const q = await paths[i]!.quote(tradeType, at(k));
    if (!q) return undefined;
    return tradeType === 'EXACT_INPUT' ? q.amountOut : -q.amountIn;
  };
  const chunks = paths.map(() => 0n);
  const worths: (bigint | undefined)[] = paths.map(() => 0n);
  // The gain of each path's next chunk; only the path that took the last chunk needs a new one.
  const gainOf = async (i: number) => {
    const next = await worth(i, chunks[i]! + 1n);
    return next === undefined || worths[i] === undefined ? undefined : next - worths[i]!;
  };
  const gains = await Promise.all(paths.map((_, i) => gainOf(i)));
  for (let n = 0n; n < SPLIT_CHUNKS; n++) {
    let best = -1;
    for (let i = 0; i < gains.length; i++) {
      if (gains[i] !== undefined && (best < 0 || gains[i]! > gains[best]!)) best = i;
    }
    if (best < 0) return undefined;
    worths[best] = worths[best]! + gains[best]!;
    chunks[best]! += 1n;
    if (n + 1n < SPLIT_CHUNKS) gains[best] = await gainOf(best);
  }
  // Chunks are rounded down: the remainder of the division goes to the largest part.
  const amounts = chunks.map((k) => at(k));
  let largest = 0;
  for (let i = 1; i < amounts.length; i++) if (amounts[i]! > amounts[largest]!) largest = i;
  amounts[largest]! += amount - amounts.reduce((a, b) => a + b, 0n);
  return amounts;
}

/** Up to MAX_SPLIT_PARTS paths from `ranked` (best first), each sharing no pool with those before it. */
export function disjointPaths(ranked: readonly SwapPath[]): SwapPath[] {
  const picked: SwapPath[] = [];
  const used = new Set<string>();
  for (const path of ranked) {
    const pools = path.pools.map((p) => p.toLowerCase());
    if (pools.some((p) => used.has(p))) continue;
    picked.push(path);
    for (const p of pools) used.add(p);
    if (picked.length === MAX_SPLIT_PARTS) break;
  }
  return picked;
}
