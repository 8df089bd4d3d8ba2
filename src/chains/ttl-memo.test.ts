import { describe, expect, it } from 'vitest';
import { createTtlMemo } from './ttl-memo.ts';

const TTL_MS = 1_000;
/** Any clock reading but 0 (which lru-cache takes for "no start time"). */
const START_MS = 1_000_000;

function setup() {
  const clock = { ms: START_MS };
  const memo = createTtlMemo<number, { n: number }>(TTL_MS, () => clock.ms);
  let reads = 0;
  const read = () => Promise.resolve({ n: ++reads });
  return { clock, memo, read, reads: () => reads };
}

describe('createTtlMemo', () => {
  it('shares one read among concurrent callers and keeps its value for the TTL, per key', async () => {
    const { clock, memo, read, reads } = setup();
    const [a, b] = await Promise.all([memo.get(1, read), memo.get(1, read)]);
    expect([a, b, reads()]).toEqual([{ n: 1 }, { n: 1 }, 1]);
    clock.ms = START_MS + TTL_MS - 1;
    expect(await memo.get(1, read)).toEqual({ n: 1 });
    expect(await memo.get(2, read)).toEqual({ n: 2 });
    clock.ms = START_MS + TTL_MS + 1;
    expect(await memo.get(1, read)).toEqual({ n: 3 });
  });

  it('does not keep a failed read: every caller of it sees the error, the next caller reads again', async () => {
    const { memo, read } = setup();
    const failing = () => Promise.reject(new Error('rpc down'));
    const results = await Promise.allSettled([memo.get(1, failing), memo.get(1, read)]);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value))).toEqual([
      'rpc down',
      'rpc down',
    ]);
    expect(await memo.get(1, read)).toEqual({ n: 1 });
  });
});
