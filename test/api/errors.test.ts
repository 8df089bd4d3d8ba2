import { readFileSync } from 'node:fs';
import { webrpcErrorByCode } from '@0xtrails/api';
import { HttpRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { RPC_ERROR_LIST, RPC_ERRORS } from '../../src/api/errors/table.ts';
import { DOMAIN_ERROR_TABLE, toWireError } from '../../src/api/errors/to-wire-error.ts';
import { ChainUnavailableError } from '../../src/chains/errors.ts';
import * as intentErrors from '../../src/intents/errors.ts';
import {
  DepositSignatureRejectedError,
  ExecuteWindowClosedError,
  IntentChangedError,
  IntentNotFoundError,
  QuoteExpiredError,
  WrongStatusError,
} from '../../src/intents/errors.ts';
import { GasAboveCapError } from '../../src/intents/plan/errors.ts';
import { ChainNotSupportedError, InvalidInputError } from '../../src/internal/errors.ts';
import { InsufficientInventoryError } from '../../src/providers/errors.ts';
import { DatabaseUnavailableError, InvalidPageError } from '../../src/store/errors.ts';
import * as yieldErrors from '../../src/yield/errors.ts';
import { MarketNotFoundError, ProviderNotFoundError } from '../../src/yield/errors.ts';

const DOCS = new URL('../../docs/errors.md', import.meta.url);

/** The cells of the markdown table rows whose first cell matches `first`. */
function tableRows(first: RegExp): string[][] {
  return readFileSync(DOCS, 'utf8')
    .split('\n')
    .filter((line) => first.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

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
    const rows = tableRows(/^\|\s*-?\d+\s*\|/);
    expect(rows).toEqual(RPC_ERROR_LIST.map((e) => [String(e.code), e.name, String(e.status), e.message]));
  });
});

describe('the domain error table', () => {
  const BODY_LIMIT = 1024;

  it('is the table in docs/errors.md, row for row: class, webrpc error, code and HTTP status', () => {
    const rows = tableRows(/^\| `\w+Error` \|/).map(([type, , rpc, code, status]) => [
      type,
      rpc,
      code,
      status,
    ]);
    expect(rows).toEqual(
      DOMAIN_ERROR_TABLE.map((row) => {
        const spec = RPC_ERRORS[row.rpc];
        return [`\`${row.type.name}\``, spec.name, String(spec.code), String(row.httpStatus ?? spec.status)];
      }),
    );
  });

  it("has a row for every error the intent and yield services throw (theirs or an ancestor's)", () => {
    const classes = [...Object.values(intentErrors), ...Object.values(yieldErrors)];
    expect(classes.length).toBeGreaterThan(0);
    for (const type of classes) {
      const instance = Object.create((type as { prototype: object }).prototype) as Error;
      expect(toWireError(instance, BODY_LIMIT).unexpected, (type as { name: string }).name).toBe(false);
    }
  });

  it('puts what each domain error carries where the official client reads it', () => {
    const cases: [Error, Record<string, unknown>][] = [
      [
        new InvalidInputError('depositSignature.deadline', 'expired'),
        { error: 'InvalidArgument', code: 2000, status: 400, cause: 'field=depositSignature.deadline' },
      ],
      [new InvalidInputError('', 'request body must be a JSON object'), { code: 2000, cause: 'body' }],
      [
        new IntentChangedError('intent.salt'),
        {
          code: 2000,
          cause: 'field=intent.salt',
          msg: 'intent.salt: differs from the quoted intent; commit the intent exactly as QuoteIntent returned it',
        },
      ],
      [
        new DepositSignatureRejectedError('depositSignature', 'no'),
        { code: 2000, cause: 'field=depositSignature' },
      ],
      [
        new ChainNotSupportedError('originChainId', 5),
        {
          error: 'UnsupportedNetwork',
          code: 8008,
          status: 422,
          cause: 'field=originChainId',
          msg: 'originChainId: chain 5 is not supported by this server',
        },
      ],
      [
        new IntentNotFoundError('0xab', 'quote it first'),
        { code: 8000, msg: 'intent 0xab not found: quote it first' },
      ],
      [new MarketNotFoundError('acme-1-0x01'), { error: 'NotFound', code: 8000, status: 400 }],
      [
        new ProviderNotFoundError('acme'),
        {
          error: 'NotFound',
          code: 8000,
          msg: "providerId: no yield provider 'acme'; list them with YieldGetProviders",
        },
      ],
      [
        new WrongStatusError('intent 0xab has already finished: it is SUCCEEDED', 'SUCCEEDED'),
        { error: 'IntentStatus', code: 2004, status: 422, cause: 'intent status=SUCCEEDED' },
      ],
      [
        new QuoteExpiredError(new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:05:00Z')),
        {
          error: 'QuoteExpired',
          code: 7001,
          msg: 'the quote expired at 2026-01-01T00:00:00.000Z; request a new quote',
        },
      ],
      [
        new ExecuteWindowClosedError('0xab', new Date('2026-01-01T00:10:00Z'), new Date()),
        { code: 7001, msg: expect.stringContaining('execute window of intent 0xab closed') },
      ],
    ];
    for (const [error, body] of cases) {
      const wire = toWireError(error, BODY_LIMIT);
      expect(wire.unexpected, error.name).toBe(false);
      expect(wire.body, error.name).toMatchObject({ ...body, message: wire.body.msg });
      expect(wire.httpStatus).toBe(wire.body.status);
    }
    // Capacity, not the request: Unavailable with the numbers a client can act on.
    const token = {
      address: '0x00000000000000000000000000000000000000aa' as const,
      symbol: 'USDC',
      decimals: 6,
    };
    const short = new InsufficientInventoryError(
      7,
      token,
      { balance: 5_000_000n, held: 1_000_000n, available: 4_000_000n },
      9_000_000n,
    );
    expect(toWireError(short, BODY_LIMIT)).toMatchObject({
      httpStatus: 400,
      body: {
        error: 'Unavailable',
        code: 2002,
        msg: short.message,
        cause: `solver inventory: chainId=7 token=${token.address} available=4000000 required=9000000`,
      },
    });
    const gas = new GasAboveCapError('gas on chain 7 is above its cap', {
      details: { chainId: 7, gasPrice: 3_000_000_000n, cap: 2_000_000_000n },
    });
    expect(toWireError(gas, BODY_LIMIT).body).toMatchObject({
      code: 2002,
      cause: 'gas above cap: chainId=7 gasPrice=3000000000 cap=2000000000',
    });
    // No cause where there is nothing machine-readable to add.
    expect(toWireError(new IntentNotFoundError('0xab'), BODY_LIMIT).body).not.toHaveProperty('cause');
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
