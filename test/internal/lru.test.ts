import { describe, expect, it } from 'vitest';
import { createLru } from '../../src/internal/lru.ts';

function byLength(maxWeight: number) {
  const removed: string[] = [];
  const lru = createLru<string, string>({
    maxWeight,
    weigh: (value) => value.length,
    onRemove: (key) => removed.push(key),
  });
  return { lru, removed };
}

describe('createLru', () => {
  it('evicts the least recently used entries until a new one fits, a read counting as a use', () => {
    const { lru, removed } = byLength(6);
    lru.set('a', 'aa');
    lru.set('b', 'bb');
    lru.set('c', 'cc');
    expect(lru.get('a')).toBe('aa');
    lru.set('d', 'dddd');
    expect(removed).toEqual(['b', 'c']);
    expect([lru.peek('a'), lru.peek('d')]).toEqual(['aa', 'dddd']);
    expect([lru.size, lru.weight]).toEqual([2, 6]);
  });

  it('peek leaves the order as it is', () => {
    const { lru, removed } = byLength(2);
    lru.set('a', 'a');
    lru.set('b', 'b');
    lru.peek('a');
    lru.set('c', 'c');
    expect(removed).toEqual(['a']);
  });

  it('refuses a value heavier than the whole bound, and the old value of its key is gone', () => {
    const { lru, removed } = byLength(3);
    lru.set('a', 'aa');
    expect(lru.set('a', 'aaaa')).toBe(false);
    expect(removed).toEqual(['a']);
    expect([lru.size, lru.weight]).toEqual([0, 0]);
  });

  it('reports every way out: replacement, delete and clear', () => {
    const { lru, removed } = byLength(10);
    lru.set('a', 'a');
    lru.set('a', 'aa');
    lru.set('b', 'b');
    lru.set('c', 'c');
    lru.delete('b');
    lru.delete('missing');
    lru.clear();
    expect(removed).toEqual(['a', 'b', 'a', 'c']);
    expect([lru.size, lru.weight]).toEqual([0, 0]);
  });

  it('bounds by count with a weight of 1 an entry', () => {
    const lru = createLru<number, object>({ maxWeight: 2, weigh: () => 1 });
    for (const n of [1, 2, 3]) lru.set(n, {});
    expect([lru.peek(1), lru.size]).toEqual([undefined, 2]);
  });
});
