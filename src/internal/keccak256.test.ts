import { toHex, keccak256 as viemKeccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { keccak256 } from './keccak256.ts';

describe('keccak256', () => {
  it('gives the known digests of the empty input and of "abc"', () => {
    expect(keccak256('0x')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256(new TextEncoder().encode('abc'))).toBe(
      '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it("equals viem's keccak256 on every length up to four blocks, from hex and from bytes", () => {
    for (let length = 0; length <= 4 * 136 + 1; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      const expected = viemKeccak256(bytes);
      expect(keccak256(bytes)).toBe(expected);
      expect(keccak256(toHex(bytes))).toBe(expected);
    }
  });

  it('accepts upper-case hex digits and refuses what is not hex', () => {
    expect(keccak256('0xABCDEF')).toBe(viemKeccak256('0xabcdef'));
    expect(() => keccak256('0xabc')).toThrow(TypeError);
    expect(() => keccak256('0xzz')).toThrow(TypeError);
    expect(() => keccak256('abcd' as `0x${string}`)).toThrow(TypeError);
  });
});
