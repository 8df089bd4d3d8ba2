import { describe, expect, it } from 'vitest';
import { createPriceCache } from './price-cache.ts';

const TTL_MS = 10_000;

function setup(maxTokens?: number) {
  const clock = { ms: 0 };
  const cache = createPriceCache({ ttlMs: TTL_MS, now: () => clock.ms, maxTokens });
  let reads = 0;
  const read = () => Promise.resolve(++reads);
  return { clock, cache, read, reads: () => reads };
}

describe('price cache', () => {
  it('serves a price for the TTL from its read time, one read for concurrent misses', async () => {
    const { clock, cache, read, reads } = setup();
    const [a, b] = await Promise.all([cache.get('1:eth', read), cache.get('1:eth', read)]);
    expect([a, b, reads()]).toEqual([{ priceUsd: 1, readAt: 0 }, { priceUsd: 1, readAt: 0 }, 1]);
    clock.ms = TTL_MS - 1;
    expect(await cache.get('1:eth', read)).toEqual({ priceUsd: 1, readAt: 0 });
    clock.ms = TTL_MS;
    expect(await cache.get('1:eth', read)).toEqual({ priceUsd: 2, readAt: TTL_MS });
  });

  it('shows the older price while a new read runs, and keeps it when the read fails', async () => {
    const { clock, cache, read } = setup();
    await cache.get('1:eth', read);
    clock.ms = TTL_MS;
    let finish: (price: number) => void = () => {};
    const slow = cache.get('1:eth', () => new Promise((resolve) => (finish = resolve)));
    expect(cache.peek('1:eth')).toEqual({ priceUsd: 1, readAt: 0 });
    finish(5);
    expect(await slow).toEqual({ priceUsd: 5, readAt: TTL_MS });
    clock.ms = 2 * TTL_MS;
    await expect(cache.get('1:eth', () => Promise.reject(new Error('rpc down')))).rejects.toThrow('rpc down');
    expect(cache.peek('1:eth')).toEqual({ priceUsd: 5, readAt: TTL_MS });
  });

  it('keeps at most its bound of tokens, dropping the least recently used', async () => {
    const { cache, read } = setup(2);
    await cache.get('1:a', read);
    await cache.get('1:b', read);
    await cache.get('1:a', read);
    await cache.get('1:c', read);
    expect(['1:a', '1:b', '1:c'].map((key) => cache.peek(key)?.priceUsd)).toEqual([1, undefined, 3]);
  });
});
