import { expect, it } from 'vitest';
import { createKeyedQueue } from './keyed-queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

it('runs one key’s jobs one after another, in order, even after a failure, and other keys beside them', async () => {
  const queue = createKeyedQueue();
  const log: string[] = [];
  const job =
    (name: string, fail = false) =>
    async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
  const a1 = queue('a', job('a1', true));
  const a2 = queue('a', job('a2'));
  const b1 = queue('b', job('b1'));
  await expect(a1).rejects.toThrow('a1 failed');
  expect(await a2).toBe('a2');
  expect(await b1).toBe('b1');
  // a2 starts only after a1 ended; b1 started while a1 ran.
  expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
  expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
});
