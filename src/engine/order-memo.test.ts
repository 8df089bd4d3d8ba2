import { describe, expect, it } from 'vitest';
import type { OrderData } from '../contracts/types.ts';
import { createOrderMemo } from './order-memo.ts';

const order = (n: number) => ({ inputAmount: BigInt(n) }) as OrderData;

describe('order memo', () => {
  it('finds an order by its origin hash, and by intent only when remembered with one', () => {
    const memo = createOrderMemo(4);
    memo.remember('0xAA', order(1));
    memo.remember('0xbb', order(2), '0xIntent');
    expect(memo.get('0xaa')).toEqual(order(1));
    expect(memo.ofIntent('0xaa')).toBeUndefined();
    expect(memo.get('0xBB')).toEqual(order(2));
    expect(memo.ofIntent('0xintent')).toEqual(order(2));
  });

  it('forgets the least recently used entries past its size, by hash and by intent', () => {
    const memo = createOrderMemo(2);
    for (const n of [1, 2, 3]) memo.remember(`0x${n}`, order(n), `i${n}`);
    expect(memo.get('0x1')).toBeUndefined();
    expect(memo.ofIntent('i1')).toBeUndefined();
    expect(memo.ofIntent('i3')).toEqual(order(3));
  });
});
