/**
 * Every mistake a caller can make in a history request is a clear error, never a 500, on SQLite and on
 * Postgres: a bad page member is InvalidArgument naming it (`page.column`, `page.sort[0].column`,
 * `page.after`, …) and, for columns, listing the ones accepted; numbers past the database's integer
 * range match nothing; a chain that does not answer a balance read is Unavailable with Retry-After.
 * Through plain HTTP on both paths and through the official client.
 */
import { InvalidArgumentError, TrailsApi, UnavailableError } from '@0xtrails/api';
import { beforeAll, expect, it } from 'vitest';
import { intentFixture, randomAddress } from '../../bench/fixtures/wire-intent.ts';
import { createApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { describeEachDialect } from '../harness/database.ts';
import { CHAINS, USDC_A, WETH_B } from './fixtures.ts';

/** Past Postgres' `integer` (2^31 − 1), still a safe JavaScript integer. */
const HUGE = 2 ** 40;
const ACCEPTED = 'must be one of the columns id, createdAt';

describeEachDialect('history request errors', (db) => {
  let url: string;
  let key: string;
  let api: TrailsApi;
  const owner = randomAddress();

  const post = async (path: 'Trails' | 'Service', method: string, body: unknown) => {
    const response = await fetch(`${url}/rpc/${path}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': key },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      headers: response.headers,
      // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary response members
      json: (await response.json()) as Record<string, any>,
    };
  };

  beforeAll(async () => {
    const store = await db.openStore();
    const project = await store.projects.create('errors');
    key = (await store.accessKeys.create({ projectId: project.id })).key;
    for (let i = 0; i < 3; i++) {
      const f = intentFixture({
        projectId: project.id,
        ownerAddress: owner,
        originChainId: CHAINS[0]!.chainId,
        destinationChainId: CHAINS[1]!.chainId,
        originTokenAddress: USDC_A.toLowerCase(),
        destinationTokenAddress: WETH_B.toLowerCase(),
      });
      await store.intents.insert(f.intent);
    }
    // CHAINS' RPC URLs point at a closed port: every balance read fails to connect.
    const server = await createApiServer({
      chains: CHAINS,
      store,
      log: createSilentLogger(),
      rateLimit: false,
    });
    url = await server.listen(0, '127.0.0.1');
    api = new TrailsApi(key, { hostname: url });
    return () => server.close();
  });

  const badPages: { page: unknown; field: string; says: string }[] = [
    { page: { column: 'updatedAt' }, field: 'page.column', says: ACCEPTED },
    { page: { column: 'status' }, field: 'page.column', says: ACCEPTED },
    { page: { column: 'nope', pageSize: 5 }, field: 'page.column', says: ACCEPTED },
    {
      page: { sort: [{ column: 'updatedAt', order: 'DESC' }] },
      field: 'page.sort[0].column',
      says: ACCEPTED,
    },
    { page: { sort: [{ column: 'status', order: 'ASC' }] }, field: 'page.sort[0].column', says: ACCEPTED },
    {
      page: { column: 'id', sort: [{ column: 'createdAt', order: 'ASC' }] },
      field: 'page.sort[0].column',
      says: "must be page.column ('id')",
    },
    { page: { sort: [{ column: 'id', order: 'SIDEWAYS' }] }, field: 'page.sort[0].order', says: 'ASC' },
    {
      page: {
        sort: [
          { column: 'id', order: 'ASC' },
          { column: 'id', order: 'ASC' },
        ],
      },
      field: 'page.sort',
      says: 'one entry',
    },
    { page: { after: -1 }, field: 'page.after', says: 'non-negative' },
    { page: { before: -1 }, field: 'page.before', says: 'non-negative' },
    { page: { after: 2 ** 60 }, field: 'page.after', says: 'non-negative integer' },
    { page: { after: 1, before: 2 }, field: 'page.before', says: 'not both' },
    { page: { after: 1.5 }, field: 'page.after', says: 'integer' },
    { page: { pageSize: 0 }, field: 'page.pageSize', says: 'between 1 and 100' },
  ];

  it('a bad page member is InvalidArgument (2000) naming it, on both paths and both history methods', async () => {
    for (const { page, field, says } of badPages) {
      for (const path of ['Trails', 'Service'] as const) {
        for (const method of ['GetIntentHistory', 'GetIntentTransactionHistory']) {
          const label = `${path}/${method} ${JSON.stringify(page)}`;
          const { status, json } = await post(path, method, { page });
          expect(status, label).toBe(400);
          expect(json.error, label).toBe('InvalidArgument');
          expect(json.code, label).toBe(2000);
          expect(json.msg, label).toMatch(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `));
          expect(json.msg, label).toContain(says);
          expect(json.message, label).toBe(json.msg);
          expect(json.cause, label).toBe(`field=${field}`);
        }
      }
    }
  });

  it('the official client gets an InvalidArgumentError naming the field and the accepted columns', async () => {
    const error = await api.getIntentHistory({ page: { column: 'updatedAt' } }).then(
      () => {
        throw new Error('answered');
      },
      (e: unknown) => e as InvalidArgumentError,
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe('page.column: must be one of the columns id, createdAt, got "updatedAt"');
    const sortError = await api
      .getIntentTransactionHistory({ page: { sort: [{ column: 'status', order: 'DESC' as never }] } })
      .then(
        () => {
          throw new Error('answered');
        },
        (e: unknown) => e as InvalidArgumentError,
      );
    expect(sortError).toBeInstanceOf(InvalidArgumentError);
    expect(sortError.message).toContain('page.sort[0].column: must be one of the columns id, createdAt');
  });

  it('numbers past the id and chain id columns are answered (nothing beyond them), not a 500', async () => {
    const all = await post('Service', 'GetIntentHistory', { byOwnerAddress: owner });
    expect(all.json.intents).toHaveLength(3);
    const ids = (json: Record<string, { intentId: string }[]>) => json.intents!.map((e) => e.intentId);
    const newestFirst = ids(all.json);
    const after = await post('Service', 'GetIntentHistory', { page: { after: HUGE }, byOwnerAddress: owner });
    expect(after.status).toBe(200);
    expect(ids(after.json)).toEqual(newestFirst);
    const ascending = { column: 'id', sort: [{ column: 'id', order: 'ASC' }] };
    const before = await post('Service', 'GetIntentHistory', {
      page: { ...ascending, before: HUGE },
      byOwnerAddress: owner,
    });
    expect(before.status).toBe(200);
    expect(ids(before.json)).toEqual([...newestFirst].reverse());
    for (const body of [
      { page: { before: HUGE } },
      { page: { after: HUGE, column: 'createdAt' } },
      { originChainId: HUGE },
      { destinationChainId: HUGE },
      { fromTime: Number.MAX_SAFE_INTEGER },
    ]) {
      const { status, json } = await post('Trails', 'GetIntentHistory', { ...body, byOwnerAddress: owner });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(json, JSON.stringify(body)).toEqual({ intents: [] });
    }
    const untilTheEnd = await post('Trails', 'GetIntentHistory', {
      toTime: Number.MAX_SAFE_INTEGER,
      byOwnerAddress: owner,
    });
    expect(untilTheEnd.status).toBe(200);
    expect(untilTheEnd.json.intents).toHaveLength(3);
    const summaries = await post('Trails', 'GetIntentTransactionHistory', { page: { after: HUGE } });
    expect(summaries.status).toBe(200);
    expect(summaries.json.intents).toHaveLength(3);
  });

  it('balances from a chain that does not answer: Unavailable (2002) with Retry-After, not a 500', async () => {
    for (const flag of ['includeBalances', 'onlyRecoverable']) {
      const { status, headers, json } = await post('Trails', 'GetIntentHistory', {
        byOwnerAddress: owner,
        [flag]: true,
      });
      expect(status, flag).toBe(503);
      expect(json.error, flag).toBe('Unavailable');
      expect(json.code, flag).toBe(2002);
      expect(json.msg, flag).toContain(`chain ${CHAINS[0]!.chainId}`);
      expect(Number(headers.get('retry-after')), flag).toBeGreaterThan(0);
    }
    await expect(
      api.getIntentHistory({ byOwnerAddress: owner, includeBalances: true } as never),
    ).rejects.toBeInstanceOf(UnavailableError);
  });
});
