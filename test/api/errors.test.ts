import { readFileSync } from 'node:fs';
import { webrpcErrorByCode } from '@0xtrails/api';
import { describe, expect, it } from 'vitest';
import { RPC_ERROR_LIST } from '../../src/api/errors/table.ts';

describe('the webrpc error table', () => {
  it('matches the official client: same codes, names, default statuses and messages', () => {
    const clientCodes = Object.keys(webrpcErrorByCode)
      .map(Number)
      .sort((a, b) => a - b);
    expect(RPC_ERROR_LIST.map((e) => e.code).sort((a, b) => a - b)).toEqual(clientCodes);
    for (const spec of RPC_ERROR_LIST) {
      const instance = new webrpcErrorByCode[spec.code]();
      expect({
        code: spec.code,
        name: instance.name,
        status: instance.status,
        message: instance.message,
      }).toEqual({
        code: spec.code,
        name: spec.name,
        status: spec.status,
        message: spec.message,
      });
    }
  });

  it('is the table in docs/errors.md, row for row', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = doc
      .split('\n')
      .filter((line) => /^\|\s*-?\d+\s*\|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows).toEqual(RPC_ERROR_LIST.map((e) => [String(e.code), e.name, String(e.status), e.message]));
  });
});
