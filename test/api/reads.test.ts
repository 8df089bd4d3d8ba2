/** Store-backed reads through the official client (SQLite in memory): scoping, bigints, paging. */
import { NotFoundError, PermissionDeniedError, TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { newIntent } from '../../src/store/testing.ts';
import { startTestServer, USDC_A } from './fixtures.ts';

let store: Store;
let server: ApiServer;
let url: string;
let keyA: string;
let keyB: string;
const intentIds: string[] = [];

beforeAll(async () => {
  store = await createStore({ sqlitePath: ':memory:', log: createSilentLogger() });
  const a = await store.projects.create('a');
  const b = await store.projects.create('b');
  keyA = (await store.accessKeys.create({ projectId: a.id })).key;
  keyB = (await store.accessKeys.create({ projectId: b.id })).key;
  for (let i = 0; i < 3; i++) {
    const intent = await store.intents.insert(
      newIntent(a.id, {
        originTokenAddress: USDC_A.toLowerCase(),
        originTokenAmount: 10n ** 24n + BigInt(i),
      }),
    );
    intentIds.push(intent.intentId);
  }
  ({ server, url } = await startTestServer({ store, resolveAccessKey: undefined }));
});
afterAll(async () => {
  await server.close();
  await store.close();
});

describe('reads', () => {
  it('returns a receipt with bigint amounts and token metadata', async () => {
    const api = new TrailsApi(keyA, { hostname: url });
    const { intentReceipt } = await api.getIntentReceipt({ intentId: intentIds[0]! });
    expect(intentReceipt.status).toBe('QUOTED');
    expect(intentReceipt.summary.originTokenAmount).toBe(10n ** 24n);
    expect(typeof intentReceipt.depositTransaction.tokenAmount).toBe('bigint');
    expect(intentReceipt.summary.originTokenMetadata.symbol).toBe('USDC');
  });

  it("keeps projects apart: another project's intent is NotFound, its byProjectId PermissionDenied", async () => {
    const other = new TrailsApi(keyB, { hostname: url });
    await expect(other.getIntentReceipt({ intentId: intentIds[0]! })).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.getIntentHistory({ byProjectId: 1 })).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await other.searchIntents({ byIntentId: intentIds[0]! })).intents).toEqual([]);
  });

  it('pages history with nextPage sent back verbatim', async () => {
    const api = new TrailsApi(keyA, { hostname: url });
    const first = await api.getIntentHistory({ page: { pageSize: 2 } });
    expect(first.intents).toHaveLength(2);
    expect(first.nextPage?.more).toBe(true);
    const second = await api.getIntentHistory({ page: first.nextPage! });
    expect(second.intents).toHaveLength(1);
    expect(second.nextPage).toBeUndefined();
    const seen = [...first.intents, ...second.intents].map((h) => h.intentId).sort();
    expect(seen).toEqual([...intentIds].sort());
  });
});

describe('transaction status spelling per dialect', () => {
  it('reads a RELAYED transaction as SENT on /rpc/Trails (the client has no RELAYED) and RELAYED on /rpc/Service', async () => {
    const intentId = intentIds[2]!;
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 1, status: 'RELAYED' });

    const api = new TrailsApi(keyA, { hostname: url });
    const { intentReceipt } = await api.getIntentReceipt({ intentId });
    expect(intentReceipt.originTransaction.status).toBe('SENT');
    const history = await api.getIntentHistory({ page: { pageSize: 10 } });
    const entry = history.intents.find((e) => e.intentId === intentId);
    expect(entry?.receipt.originTransaction.status).toBe('SENT');

    const res = await fetch(`${url}/rpc/Service/GetIntentReceipt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': keyA },
      body: JSON.stringify({ intentId }),
    });
    const body = (await res.json()) as { intentReceipt: { originTransaction: { status: string } } };
    expect(body.intentReceipt.originTransaction.status).toBe('RELAYED');
  });
});
