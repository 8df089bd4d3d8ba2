/** The pool directory: what exists is remembered, absence only for its TTL, and the directory stays bounded. */
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { createPoolDirectory, POOL_ABSENCE_TTL_MS, POOL_DIRECTORY_ENTRIES } from './pool-directory.ts';

const A = '0x00000000000000000000000000000000000000aa' as Address;
const B = '0x00000000000000000000000000000000000000bB' as Address;
const PAIR = '0x1111111111111111111111111111111111111111' as Address;

describe('the pool directory', () => {
  it('remembers a pair either way round and a pool with its word; absence only until the TTL passes', () => {
    const clock = { ms: 1_000 };
    const directory = createPoolDirectory({ now: () => clock.ms });
    expect(directory.v2Pair(1, A, B)).toBeUndefined();
    directory.noteV2Pair(1, A, B, PAIR);
    expect(directory.v2Pair(1, B.toLowerCase() as Address, A)).toBe(PAIR);
    expect(directory.v2Pair(2, A, B)).toBeUndefined();
    directory.noteV3Pool(1, PAIR, { word: -3 });
    directory.noteV3Pool(1, A, null);
    clock.ms += POOL_ABSENCE_TTL_MS - 1;
    expect(directory.v3Pool(1, A)).toBeNull();
    clock.ms += 1;
    expect(directory.v3Pool(1, A)).toBeUndefined();
    expect(directory.v3Pool(1, PAIR)).toEqual({ word: -3 });
  });

  it('forgets the oldest notes past its size', () => {
    const directory = createPoolDirectory();
    const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}` as Address;
    for (let i = 0; i <= POOL_DIRECTORY_ENTRIES; i++) directory.noteV3Pool(1, address(i), { word: i });
    expect(directory.v3Pool(1, address(0))).toBeUndefined();
    expect(directory.v3Pool(1, address(POOL_DIRECTORY_ENTRIES))).toEqual({ word: POOL_DIRECTORY_ENTRIES });
  });
});
