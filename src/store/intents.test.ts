import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress, randomHash } from './testing.ts';
import type { IntentStatus, Project, Store, TransactionStatus } from './types.ts';

const MAX_UINT256 = 2n ** 256n - 1n;

describeEachDialect('intents', ({ openStore }) => {
  let store: Store;
  let alpha: Project;
  let beta: Project;
  beforeAll(async () => {
    store = await openStore();
    alpha = await store.projects.create('alpha');
    beta = await store.projects.create('beta');
  });

  it('stores an intent as QUOTED and reads it back exactly, amounts as bigint up to 2^256−1', async () => {
    const input = newIntent(alpha.id, {
      ownerAddress: '0xAbCdEf0000000000000000000000000000000001',
      originTokenAmount: MAX_UINT256,
      destinationTokenAmount: 1n,
      intent: { nested: { amount: MAX_UINT256.toString() }, list: [1, 'two'] },
    });
    const stored = await store.intents.insert(input);
    expect(stored.status).toBe('QUOTED');
    expect(stored.id).toBeGreaterThan(0);
    expect(stored.originTokenAmount).toBe(MAX_UINT256);
    expect(stored.ownerAddress).toBe('0xabcdef0000000000000000000000000000000001');

    const read = await store.intents.get({
      projectId: alpha.id,
      intentId: input.intentId.toUpperCase().replace('0X', '0x'),
    });
    expect(read).toEqual(stored);
    expect(read?.intent).toEqual({ nested: { amount: MAX_UINT256.toString() }, list: [1, 'two'] });
    expect(read?.quoteExpiresAt.getTime()).toBe(input.quoteExpiresAt.getTime());
  });

  it('scopes reads to the project: project B cannot read project A’s intent or receipt', async () => {
    const input = newIntent(alpha.id);
    await store.intents.insert(input);
    expect(await store.intents.get({ projectId: beta.id, intentId: input.intentId })).toBeUndefined();
    expect(await store.intents.getReceipt({ projectId: beta.id, intentId: input.intentId })).toBeUndefined();
    expect(await store.intents.search({ projectId: beta.id, byIntentId: input.intentId })).toEqual([]);
    expect((await store.intents.get({ projectId: alpha.id, intentId: input.intentId }))?.intentId).toBe(
      input.intentId,
    );
  });

  it("a receipt read holds only the wire intent's receipt fields, the same on every read, with the row's status", async () => {
    const wire = {
      quoteRequest: {
        tradeType: 'EXACT_INPUT',
        destinationToAddress: '0x00000000000000000000000000000000000000aa',
        destinationCallData: '0x1234',
        destinationCallValue: '5',
        originTokenAmount: '100',
      },
      quote: { routeProviders: ['UNISWAP_V2'], fromAmount: '100' },
      expiresAt: '2030-01-01T00:00:00.000Z',
      depositTransaction: { to: '0x00000000000000000000000000000000000000bb', data: '0xabcdef' },
    };
    const { intentId } = await store.intents.insert(newIntent(alpha.id, { intent: wire }));
    const picked = {
      quoteRequest: {
        tradeType: 'EXACT_INPUT',
        destinationToAddress: '0x00000000000000000000000000000000000000aa',
        destinationCallData: '0x1234',
        destinationCallValue: '5',
      },
      quote: { routeProviders: ['UNISWAP_V2'] },
      expiresAt: '2030-01-01T00:00:00.000Z',
    };

    const first = await store.intents.getReceipt({ projectId: alpha.id, intentId });
    expect(first?.intent.intent).toEqual(picked);
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    // The second read leaves the text out (the fields are kept) and still sees the new status.
    const second = await store.intents.getReceipt({ projectId: alpha.id, intentId });
    expect(second?.intent.intent).toEqual(picked);
    expect(second?.intent.status).toBe('COMMITTED');
    expect({ ...second?.intent, intent: null, status: null, updatedAt: null }).toEqual({
      ...first?.intent,
      intent: null,
      status: null,
      updatedAt: null,
    });
    // The whole wire intent is still what `get` returns.
    expect((await store.intents.get({ projectId: alpha.id, intentId }))?.intent).toEqual(wire);
    expect(await store.intents.getReceipt({ projectId: beta.id, intentId })).toBeUndefined();
  });

  it('receipt reads asked together answer each as it would alone: own rows, project scope, unknown ids', async () => {
    const ids = [];
    for (let i = 0; i < 4; i += 1) {
      const { intentId } = await store.intents.insert(newIntent(alpha.id));
      await store.transactions.upsert({
        intentId,
        kind: 'deposit',
        chainId: 1,
        status: 'SUCCEEDED',
        tokenAmount: BigInt(i + 1) * 10n ** 30n,
      });
      ids.push(intentId);
    }
    // The first two are read once alone (their receipt fields are then kept: the other statement shape).
    const alone = [
      await store.intents.getReceipt({ projectId: alpha.id, intentId: ids[0]! }),
      await store.intents.getReceipt({ projectId: alpha.id, intentId: ids[1]! }),
    ];
    const asks = [
      { projectId: alpha.id, intentId: ids[0]! },
      { projectId: alpha.id, intentId: ids[1]!.toUpperCase().replace('0X', '0x') },
      { projectId: alpha.id, intentId: ids[2]! },
      { projectId: alpha.id, intentId: ids[3]! },
      { projectId: beta.id, intentId: ids[3]! },
      { projectId: alpha.id, intentId: randomHash() },
      { projectId: alpha.id, intentId: ids[0]! },
    ];
    const together = await Promise.all(asks.map((ask) => store.intents.getReceipt(ask)));
    expect(together[0]).toEqual(alone[0]);
    expect(together[1]).toEqual(alone[1]);
    expect(together[6]).toEqual(alone[0]);
    expect(together[4]).toBeUndefined();
    expect(together[5]).toBeUndefined();
    for (const [i, receipt] of together.slice(0, 4).entries()) {
      const index = [0, 1, 2, 3][i]!;
      expect(receipt?.intent.intentId).toBe(ids[index]);
      expect(receipt?.transactions.deposit?.tokenAmount).toBe(BigInt(index + 1) * 10n ** 30n);
    }
    expect(together[2]).toEqual(await store.intents.getReceipt({ projectId: alpha.id, intentId: ids[2]! }));
    // The receipt rows listed together, likewise.
    const lists = await Promise.all(
      [ids[0]!, ids[2]!, randomHash(), ids[0]!].map((id) => store.transactions.list(id)),
    );
    expect(lists[0]).toEqual(await store.transactions.list(ids[0]!));
    expect(lists[3]).toEqual(lists[0]);
    expect(lists[1]!.map((t) => t.tokenAmount)).toEqual([3n * 10n ** 30n]);
    expect(lists[2]).toEqual([]);
  });

  it('a receipt read gives its transactions as the transactions repo lists them: amounts past 2^53 exact', async () => {
    const { intentId } = await store.intents.insert(newIntent(alpha.id));
    const huge = 2n ** 255n + 12_345n;
    await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'SUCCEEDED',
      fromAddress: '0x00000000000000000000000000000000000000aa',
      tokenAmount: huge,
      txnHash: `0x${'ab'.repeat(32)}`,
      minedAt: new Date('2030-01-01T00:00:01Z'),
      meta: { note: 'kept' },
    });
    await store.transactions.upsert({
      intentId,
      kind: 'origin',
      chainId: 1,
      status: 'PENDING',
      tokenAmount: null,
    });
    const receipt = await store.intents.getReceipt({ projectId: alpha.id, intentId });
    const listed = await store.transactions.list(intentId);
    expect(receipt?.transactions.deposit).toEqual(listed.find((t) => t.kind === 'deposit'));
    expect(receipt?.transactions.origin).toEqual(listed.find((t) => t.kind === 'origin'));
    expect(receipt?.transactions.deposit?.tokenAmount).toBe(huge);
    // An intent with no receipt rows reads with none.
    const bare = await store.intents.insert(newIntent(alpha.id));
    expect(
      Object.keys(
        (await store.intents.getReceipt({ projectId: alpha.id, intentId: bare.intentId }))!.transactions,
      ),
    ).toEqual([]);
  });

  it('moves status forward only and never overwrites a terminal status', async () => {
    const { intentId } = await store.intents.insert(newIntent(alpha.id));
    const move = (to: IntentStatus) => store.intents.updateStatus({ intentId, to });

    const committedAt = new Date('2030-01-01T00:00:00Z');
    const deadline = new Date('2030-01-01T00:10:00Z');
    expect(
      await store.intents.updateStatus({ intentId, to: 'COMMITTED', committedAt, executeDeadline: deadline }),
    ).toEqual({
      updated: true,
      status: 'COMMITTED',
    });
    expect(await move('QUOTED')).toEqual({ updated: false, status: 'COMMITTED' });
    expect(await move('COMMITTED')).toEqual({ updated: false, status: 'COMMITTED' });
    const depositHash = randomHash();
    expect(
      await store.intents.updateStatus({ intentId, to: 'EXECUTING', depositTransactionHash: depositHash }),
    ).toEqual({
      updated: true,
      status: 'EXECUTING',
    });
    expect(await move('COMMITTED')).toEqual({ updated: false, status: 'EXECUTING' });
    expect(await move('SUCCEEDED')).toEqual({ updated: true, status: 'SUCCEEDED' });
    for (const later of ['FAILED', 'REFUNDED', 'ABORTED', 'INVALID', 'EXECUTING', 'QUOTED'] as const) {
      expect(await move(later)).toEqual({ updated: false, status: 'SUCCEEDED' });
    }
    const final = await store.intents.get({ projectId: alpha.id, intentId });
    expect(final).toMatchObject({
      status: 'SUCCEEDED',
      committedAt,
      executeDeadline: deadline,
      depositTransactionHash: depositHash,
    });
    expect(final?.startedAt).toBeInstanceOf(Date);
    expect(final?.finishedAt).toBeInstanceOf(Date);
    expect(await store.intents.updateStatus({ intentId: randomHash(), to: 'COMMITTED' })).toEqual({
      updated: false,
      status: undefined,
    });
  });

  it("writes a move's receipt rows whether or not the status moves, each only from the statuses its `from` allows", async () => {
    const { intentId } = await store.intents.insert(newIntent(alpha.id));
    const woken: string[] = [];
    const unsubscribe = store.events.subscribe(intentId, (id) => woken.push(id));
    const deposit = (status: 'PENDING' | 'SUCCEEDED', from: TransactionStatus[]) => ({
      intentId,
      kind: 'deposit' as const,
      chainId: 1,
      status,
      from,
    });
    const depositStatus = async () =>
      (await store.intents.getReceipt({ projectId: alpha.id, intentId }))?.transactions.deposit?.status;

    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    woken.length = 0;
    // The status stays (EXECUTING is no move from EXECUTING); the row is written all the same.
    expect(
      await store.intents.updateStatus({
        intentId,
        to: 'EXECUTING',
        rowsAfter: [deposit('SUCCEEDED', ['UNKNOWN', 'PENDING'])],
      }),
    ).toEqual({ updated: false, status: 'EXECUTING' });
    expect(await depositStatus()).toBe('SUCCEEDED');
    expect(woken).toContain(intentId);
    // SUCCEEDED is not among the row's `from`: it stays, while the status moves.
    expect(
      await store.intents.updateStatus({
        intentId,
        to: 'SUCCEEDED',
        rowsBefore: [deposit('PENDING', ['UNKNOWN', 'PENDING'])],
      }),
    ).toEqual({ updated: true, status: 'SUCCEEDED' });
    expect(await depositStatus()).toBe('SUCCEEDED');
    unsubscribe();
  });

  it('lets a committed intent skip straight to a terminal status, and only one racer wins', async () => {
    const { intentId } = await store.intents.insert(newIntent(alpha.id));
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const results = await Promise.all(
      (['REFUNDED', 'FAILED', 'ABORTED', 'SUCCEEDED'] as const).map((to) =>
        store.intents.updateStatus({ intentId, to }),
      ),
    );
    expect(results.filter((r) => r.updated)).toHaveLength(1);
    const winner = results.find((r) => r.updated)!.status;
    expect(results.every((r) => r.status === winner)).toBe(true);
    expect((await store.intents.get({ projectId: alpha.id, intentId }))?.status).toBe(winner);
  });

  it('upserts one transaction row per kind, keeping fields not given, and returns the receipt', async () => {
    const { intentId } = await store.intents.insert(newIntent(alpha.id));
    const from = randomAddress();
    const token = randomAddress();
    await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: 31_337,
      status: 'PENDING',
      fromAddress: from,
      tokenAddress: token,
      tokenAmount: MAX_UINT256,
      meta: { depositIntentEntry: { feeAmount: '10' } },
    });
    const hash = randomHash();
    const minedAt = new Date('2030-02-02T02:02:02.123Z');
    const updated = await store.transactions.upsert({
      intentId,
      kind: 'deposit',
      chainId: 31_337,
      status: 'SUCCEEDED',
      txnHash: hash.toUpperCase().replace('0X', '0x'),
      minedAt,
    });
    expect(updated).toMatchObject({
      kind: 'deposit',
      status: 'SUCCEEDED',
      fromAddress: from,
      tokenAddress: token,
      tokenAmount: MAX_UINT256,
      txnHash: hash,
      minedAt,
      meta: { depositIntentEntry: { feeAmount: '10' } },
    });
    await store.transactions.upsert({ intentId, kind: 'origin', chainId: 31_337, status: 'MINING' });
    await store.transactions.upsert({
      intentId,
      kind: 'destination',
      chainId: 31_338,
      status: 'FAILED',
      statusReason: 'execution reverted',
    });

    const receipt = await store.intents.getReceipt({ projectId: alpha.id, intentId });
    expect(receipt?.intent.intentId).toBe(intentId);
    expect(Object.keys(receipt!.transactions).sort()).toEqual(['deposit', 'destination', 'origin']);
    expect(receipt!.transactions.deposit?.id).toBe(updated.id);
    expect(receipt!.transactions.destination).toMatchObject({
      status: 'FAILED',
      statusReason: 'execution reverted',
    });
    expect(receipt!.transactions.refund).toBeUndefined();
    expect(await store.transactions.list(intentId)).toHaveLength(3);
  });

  it('lists intents in given statuses for engine recovery', async () => {
    const { intentId } = await store.intents.insert(newIntent(beta.id));
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    const executing = await store.intents.listByStatus(['EXECUTING'], 1000);
    expect(executing.map((i) => i.intentId)).toContain(intentId);
    expect(executing.every((i) => i.status === 'EXECUTING')).toBe(true);
    expect(await store.intents.getForEngine(intentId)).toMatchObject({ intentId, projectId: beta.id });
  });

  it('lists intents in given statuses a page at a time, after a given id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { intentId } = await store.intents.insert(newIntent(beta.id));
      await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
      ids.push(intentId);
    }
    const mine = (records: { intentId: string }[]) =>
      records.map((r) => r.intentId).filter((id) => ids.includes(id));
    const all = await store.intents.listByStatus(['COMMITTED'], 1000);
    expect(mine(all)).toEqual(ids);
    const second = all.find((r) => r.intentId === ids[1])!;
    const after = await store.intents.listByStatus(['COMMITTED'], 2, second.id);
    expect(after.map((r) => r.intentId)).toEqual(ids.slice(2, 4));
    expect(await store.intents.listByStatus(['COMMITTED'], 10, all.at(-1)!.id)).toEqual([]);
  });
});
