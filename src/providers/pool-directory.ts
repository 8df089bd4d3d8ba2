/**
 * What quotes have learnt about where pools are, kept across quotes by the service that owns it: a V2 pair's
 * address for a token pair, and whether a V3 pool exists at a computed address together with the bitmap
 * word its price was last in. Pools never move and are rarely created, so a quote reads the state of the
 * pools that exist, not the existence of every fee tier and pair it could try; and it reads a V3 pool's
 * ticks beside its price instead of after it (the price seldom leaves its word between two quotes; when it
 * has, the pool reader reads the new word).
 *
 * Absence is remembered for POOL_ABSENCE_TTL_MS only, so a pool created later is found that much later.
 */
import type { Address } from 'viem';

/** How long (ms) "no pool here" is believed: a new pool joins quotes within a minute. */
export const POOL_ABSENCE_TTL_MS = 60_000;
/** Pools and pairs remembered (each entry is a few dozen bytes): far more than any chain's routed pairs. */
export const POOL_DIRECTORY_ENTRIES = 20_000;

export interface V3PoolNote {
  /** The bitmap word of the pool's price when it was last read. */
  word: number;
}

export interface PoolDirectory {
  /** A V2 pair's address: the address, null while it is known to be absent, undefined when not known. */
  v2Pair(chainId: number, tokenA: Address, tokenB: Address): Address | null | undefined;
  noteV2Pair(chainId: number, tokenA: Address, tokenB: Address, pair: Address | null): void;
  /** What is known of the V3 pool at this address: a note, null while known absent, undefined when not known. */
  v3Pool(chainId: number, pool: Address): V3PoolNote | null | undefined;
  noteV3Pool(chainId: number, pool: Address, note: V3PoolNote | null): void;
}

interface Entry<T> {
  value: T | null;
  /** When absence was noted (ms); 0 for a pool that exists. */
  absentSince: number;
}

export function createPoolDirectory(options: { now?: () => number; ttlMs?: number } = {}): PoolDirectory {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? POOL_ABSENCE_TTL_MS;
  // A Map keeps insertion order: when full, the oldest note goes first (notes are cheap to learn again).
  const entries = new Map<string, Entry<unknown>>();
  const lookUp = <T>(key: string): T | null | undefined => {
    const entry = entries.get(key) as Entry<T> | undefined;
    if (!entry) return undefined;
    if (entry.value === null && now() - entry.absentSince >= ttlMs) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  const note = <T>(key: string, value: T | null) => {
    entries.delete(key);
    if (entries.size >= POOL_DIRECTORY_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, { value, absentSince: value === null ? now() : 0 });
  };
  const pairKey = (chainId: number, a: Address, b: Address) => {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()].sort();
    return `v2:${chainId}:${x}:${y}`;
  };
  return {
    v2Pair: (chainId, a, b) => lookUp<Address>(pairKey(chainId, a, b)),
    noteV2Pair: (chainId, a, b, pair) => note(pairKey(chainId, a, b), pair),
    v3Pool: (chainId, pool) => lookUp<V3PoolNote>(`v3:${chainId}:${pool.toLowerCase()}`),
    noteV3Pool: (chainId, pool, value) => note(`v3:${chainId}:${pool.toLowerCase()}`, value),
  };
}
