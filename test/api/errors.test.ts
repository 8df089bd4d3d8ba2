import { readFileSync } from 'node:fs';
import { webrpcErrorByCode } from '@0xtrails/api';
import { HttpRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { RPC_ERROR_LIST } from '../../src/api/errors/table.ts';
import { toWireError } from '../../src/api/errors/to-wire-error.ts';
import { ChainUnavailableError } from '../../src/chains/errors.ts';
import { DatabaseUnavailableError, InvalidPageError } from '../../src/store/errors.ts';

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

describe('store and chain conditions at the boundary', () => {
  const BODY_LIMIT = 1024;
  it('are the webrpc error that says what to do, never WebrpcInternalError', () => {
    const page = toWireError(
      new InvalidPageError('sort[0].column', 'must be one of the columns id, createdAt'),
      BODY_LIMIT,
    );
    expect(page).toMatchObject({
      httpStatus: 400,
      unexpected: false,
      body: {
        error: 'InvalidArgument',
        code: 2000,
        msg: 'page.sort[0].column: must be one of the columns id, createdAt',
        cause: 'field=page.sort[0].column',
      },
    });
    const chain = toWireError(new ChainUnavailableError('refused', { details: { chainId: 10 } }), BODY_LIMIT);
    expect(chain).toMatchObject({ httpStatus: 503, headers: { 'retry-after': '5' }, unexpected: false });
    expect(chain.body).toMatchObject({ error: 'Unavailable', code: 2002, cause: 'chain unavailable' });
    expect(chain.body.msg).toContain('chain 10 did not answer');
    // viem's own error for a node that refused the connection, not mapped where the call was made.
    const raw = new HttpRequestError({ url: 'http://127.0.0.1:1', cause: new TypeError('fetch failed') });
    expect(toWireError(raw, BODY_LIMIT)).toMatchObject({ httpStatus: 503, body: { code: 2002 } });
    const database = toWireError(new DatabaseUnavailableError(new Error('ECONNREFUSED')), BODY_LIMIT);
    expect(database).toMatchObject({ httpStatus: 503, body: { code: 2002, cause: 'database unavailable' } });
    expect(toWireError(new Error('a bug'), BODY_LIMIT)).toMatchObject({ httpStatus: 500, unexpected: true });
  });
});
