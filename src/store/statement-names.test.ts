import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStatementNames } from './pg-transaction-pool.ts';

const hashed = (text: string) => `sy_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

describe('Postgres statement names', () => {
  it('names a text by its hash, the same every time, and keeps naming right past the remembered limit', () => {
    const names = createStatementNames();
    const text = 'select * from intents where intent_id = $1';
    expect(names.of(text)).toBe(hashed(text));
    expect(names.of(text)).toBe(hashed(text));
    expect(names.of(`${text} and project_id = $2`)).not.toBe(names.of(text));
    // Far more distinct texts (IN lists of every length) than are remembered: each still gets its own name.
    for (let n = 1; n <= 5_000; n++) {
      const inList = `select * from intents where id in (${Array.from({ length: n % 300 }, (_, i) => `$${i + 1}`).join(', ')}) -- ${n}`;
      expect(names.of(inList)).toBe(hashed(inList));
    }
    expect(names.of(text)).toBe(hashed(text));
  });
});
