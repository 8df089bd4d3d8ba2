/**
 * GetIntent, GetIntentReceipt and SearchIntents through the official client (`@0xtrails/api` 0.9.4)
 * against a listening server, on SQLite and on Postgres, over fully populated stored intents with
 * their four receipt transactions.
 */
import { NotFoundError, PermissionDeniedError, TrailsApi } from '@0xtrails/api';
import { getAddress } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import {
  type IntentFixture,
  intentFixture,
  randomAddress,
  randomHash,
} from '../../bench/fixtures/wire-intent.ts';
import { createApiServer } from '../../src/api/server.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { Store, TransactionKind } from '../../src/store/index.ts';
import { describeEachDialect } from '../harness/database.ts';
import { CHAINS, USDC_A, WETH_B } from './fixtures.ts';

const KINDS: TransactionKind[] = ['deposit', 'origin', 'destination', 'refund'];
const MINUTE_MS = 60_000;
const BASE_TIME = Date.parse('2025-06-01T12:00:00Z');

/** Stores an intent with its four transactions and moves it to `status` through the allowed path. */
async function storeFixture(store: Store, fixture: IntentFixture, status: 'QUOTED' | 'SUCCEEDED') {
  const record = await store.intents.insert(fixture.intent);
  for (const tx of fixture.transactions) await store.transactions.upsert(tx);
  if (status === 'SUCCEEDED') {
    await store.intents.updateStatus({ intentId: record.intentId, to: 'COMMITTED' });
    await store.intents.updateStatus({ intentId: record.intentId, to: 'EXECUTING' });
    await store.intents.updateStatus({ intentId: record.intentId, to: 'SUCCEEDED' });
  }
  return record;
}

describeEachDialect('read methods through the official client: GetIntent, receipts, search', (db) => {
  const owner = randomAddress();
  const fixtures: IntentFixture[] = [];
  let other: IntentFixture;
  let api: TrailsApi;
  let otherApi: TrailsApi;
  let projectA: number;
  let projectB: number;

  const hashOf = (f: IntentFixture, kind: TransactionKind) =>
    f.transactions.find((t) => t.kind === kind)!.txnHash!;
  const ids = (intents: { intentId: string }[]) => intents.map((i) => i.intentId);

  beforeAll(async () => {
    const store = await db.openStore();
    projectA = (await store.projects.create('a')).id;
    projectB = (await store.projects.create('b')).id;
    const keyA = (await store.accessKeys.create({ projectId: projectA })).key;
    const keyB = (await store.accessKeys.create({ projectId: projectB })).key;
    for (let i = 0; i < 3; i++) {
      const fixture = intentFixture({
        projectId: projectA,
        ownerAddress: owner,
        originChainId: 31337,
        destinationChainId: 31338,
        originTokenAddress: USDC_A.toLowerCase(),
        destinationTokenAddress: WETH_B.toLowerCase(),
        originTokenAmount: 10n ** 30n + BigInt(i), // past 2^53: only a bigint holds it exactly
        createdAt: new Date(BASE_TIME + i * MINUTE_MS),
      });
      await storeFixture(store, fixture, i === 0 ? 'SUCCEEDED' : 'QUOTED');
      fixtures.push(fixture);
    }
    other = intentFixture({
      projectId: projectB,
      ownerAddress: owner,
      originChainId: 31337,
      destinationChainId: 31338,
      originTokenAddress: USDC_A.toLowerCase(),
      destinationTokenAddress: WETH_B.toLowerCase(),
    });
    await storeFixture(store, other, 'QUOTED');
    const server = await createApiServer({
      chains: CHAINS,
      store,
      log: createSilentLogger(),
      rateLimit: false,
    });
    const url = await server.listen(0, '127.0.0.1');
    api = new TrailsApi(keyA, { hostname: url });
    otherApi = new TrailsApi(keyB, { hostname: url });
    return () => server.close();
  });

  it('GetIntent returns the stored intent with its current status, every bigint field decoded', async () => {
    const [done] = fixtures;
    const { intent } = await api.getIntent({
      intentId: done!.intent.intentId.toUpperCase().replace('0X', '0x'),
    });
    expect(intent.intentId).toBe(done!.intent.intentId);
    expect(intent.status).toBe('SUCCEEDED');
    expect(intent.ownerAddress).toBe(owner);
    expect(intent.depositTransaction.amount).toBe(10n ** 30n);
    const bigints = [
      intent.salt,
      intent.quoteRequest.originTokenAmount,
      intent.originCalls.space,
      intent.originCalls.nonce,
      intent.originCalls.calls[0]!.value,
      intent.originCalls.calls[0]!.gasLimit,
      intent.destinationCalls!.calls[0]!.gasLimit,
      intent.originPrecondition.minAmount,
      intent.destinationPrecondition!.minAmount,
      intent.quote.fromAmount,
      intent.quote.toAmountMin,
      intent.fees.feeTokenAmount,
      intent.fees.totalFeeAmount,
      intent.fees.originGas.totalGasLimit,
      intent.fees.originGas.metaTxnFeeDetails.feeNative,
      intent.fees.destinationGas!.gasPrice,
      intent.fees.provider.trailsFee,
      intent.fees.provider.totalFeeAmount,
    ];
    expect(bigints.map((v) => typeof v)).toEqual(bigints.map(() => 'bigint'));
    expect(intent.fees.totalFeeUsd).toBe(0.3);
    expect(intent.trailsContracts.trailsIntentEntrypointAddress).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it('GetIntentReceipt returns the four transactions with their hashes, bigint amounts and the summary', async () => {
    const [done] = fixtures;
    const { intentReceipt } = await api.getIntentReceipt({ intentId: done!.intent.intentId });
    expect(intentReceipt.status).toBe('SUCCEEDED');
    expect((intentReceipt as unknown as { projectId: number }).projectId).toBe(projectA);
    const byKind = {
      deposit: intentReceipt.depositTransaction,
      origin: intentReceipt.originTransaction,
      destination: intentReceipt.destinationTransaction!,
      // 0.9.4's types predate the refund transaction; the decoder still passes it through.
      refund: (intentReceipt as unknown as { refundTransaction: typeof intentReceipt.originTransaction })
        .refundTransaction,
    };
    for (const kind of KINDS) {
      expect(byKind[kind].txnHash, kind).toBe(hashOf(done!, kind));
      expect(byKind[kind].status, kind).toBe('SUCCEEDED');
      expect(typeof byKind[kind].txnMinedAt, kind).toBe('string');
    }
    expect(byKind.deposit.type).toBe('DEPOSIT');
    expect(byKind.destination.chainId).toBe(31338);
    expect(byKind.deposit.tokenAmount).toBe(10n ** 30n);
    // 0.9.4's decoder does not walk refundTransaction (0.18.4's does): the decimal string arrives as sent.
    expect(byKind.refund.tokenAmount).toBe('1000');
    expect(intentReceipt.summary.originTokenAmount).toBe(10n ** 30n);
    expect(typeof intentReceipt.summary.destinationTokenAmount).toBe('bigint');
    expect(intentReceipt.summary.originTokenMetadata).toMatchObject({ symbol: 'USDC', decimals: 6 });
    expect(intentReceipt.summary.destinationTokenMetadata.symbol).toBe('WETH');
    expect(intentReceipt.summary.routeProviders).toEqual(['SWITCHYARD']);
    expect(typeof intentReceipt.summary.finishedAt).toBe('string');
  });

  it("another project's intent and an unknown id are NotFound; byProjectId of another project is PermissionDenied", async () => {
    await expect(otherApi.getIntent({ intentId: fixtures[0]!.intent.intentId })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      otherApi.getIntentReceipt({ intentId: fixtures[0]!.intent.intentId }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(api.getIntentReceipt({ intentId: randomHash() })).rejects.toBeInstanceOf(NotFoundError);
    await expect(api.searchIntents({ byOwnerAddress: owner, byProjectId: projectB })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(
      ids((await api.searchIntents({ byOwnerAddress: owner, byProjectId: projectA })).intents),
    ).toHaveLength(3);
    // Scoping, not an error: the other project simply has no such intent.
    expect((await otherApi.searchIntents({ byIntentId: fixtures[0]!.intent.intentId })).intents).toEqual([]);
    expect(ids((await otherApi.searchIntents({ byOwnerAddress: owner })).intents)).toEqual([
      other.intent.intentId,
    ]);
  });

  it('SearchIntents by intent id, owner and either intent address', async () => {
    const [first, second, third] = fixtures as [IntentFixture, IntentFixture, IntentFixture];
    expect(ids((await api.searchIntents({ byIntentId: second.intent.intentId })).intents)).toEqual([
      second.intent.intentId,
    ]);
    // Newest first.
    expect(ids((await api.searchIntents({ byOwnerAddress: getAddress(owner) })).intents)).toEqual(
      [third, second, first].map((f) => f.intent.intentId),
    );
    expect(
      ids((await api.searchIntents({ byOriginIntentAddress: third.intent.originIntentAddress })).intents),
    ).toEqual([third.intent.intentId]);
    expect(
      ids(
        (await api.searchIntents({ byDestinationIntentAddress: first.intent.destinationIntentAddress }))
          .intents,
      ),
    ).toEqual([first.intent.intentId]);
  });

  it('SearchIntents byTransactionHash finds the intent by any of its four transactions', async () => {
    for (const fixture of fixtures) {
      for (const kind of KINDS) {
        const { intents } = await api.searchIntents({ byTransactionHash: hashOf(fixture, kind) });
        expect(ids(intents), kind).toEqual([fixture.intent.intentId]);
      }
    }
  });

  it('SearchIntents byDepositTransactionHash matches the deposit hash only', async () => {
    const second = fixtures[1]!;
    const search = (hash: string) =>
      api.searchIntents({ byDepositTransactionHash: hash } as Parameters<TrailsApi['searchIntents']>[0]);
    expect(ids((await search(hashOf(second, 'deposit'))).intents)).toEqual([second.intent.intentId]);
    expect((await search(hashOf(second, 'origin'))).intents).toEqual([]);
  });

  it('SearchIntents byQueryString matches an intent id, an address or a transaction hash', async () => {
    const [first, second, third] = fixtures as [IntentFixture, IntentFixture, IntentFixture];
    const query = async (q: string) => ids((await api.searchIntents({ byQueryString: q })).intents);
    expect(await query(second.intent.intentId.toUpperCase().replace('0X', '0x'))).toEqual([
      second.intent.intentId,
    ]);
    expect(await query(` ${owner} `)).toEqual([third, second, first].map((f) => f.intent.intentId));
    expect(await query(first.intent.originIntentAddress)).toEqual([first.intent.intentId]);
    expect(await query(third.intent.destinationIntentAddress)).toEqual([third.intent.intentId]);
    expect(await query(hashOf(third, 'destination'))).toEqual([third.intent.intentId]);
    expect(await query(hashOf(first, 'refund'))).toEqual([first.intent.intentId]);
    expect(await query(randomHash())).toEqual([]);
    expect(await query('not a thing')).toEqual([]);
  });

  it('SearchIntents combines filters with AND and answers [] when nothing matches', async () => {
    const [first, second] = fixtures as [IntentFixture, IntentFixture];
    expect(
      ids(
        (await api.searchIntents({ byOwnerAddress: owner, byTransactionHash: hashOf(second, 'origin') }))
          .intents,
      ),
    ).toEqual([second.intent.intentId]);
    expect(
      (
        await api.searchIntents({
          byIntentId: first.intent.intentId,
          byTransactionHash: hashOf(second, 'origin'),
        })
      ).intents,
    ).toEqual([]);
    expect(
      (await api.searchIntents({ byOwnerAddress: randomAddress(), byQueryString: first.intent.intentId }))
        .intents,
    ).toEqual([]);
    expect((await api.searchIntents({ byTransactionHash: randomHash() })).intents).toEqual([]);
  });

  it('search results are full intents with bigints decoded', async () => {
    const { intents } = await api.searchIntents({ byOwnerAddress: owner });
    for (const intent of intents) {
      expect(typeof intent.salt).toBe('bigint');
      expect(typeof intent.quote.toAmount).toBe('bigint');
      expect(typeof intent.fees.originGas.totalFeeAmount).toBe('bigint');
    }
    expect(intents.map((i) => i.status)).toEqual(['QUOTED', 'QUOTED', 'SUCCEEDED']);
  });
});
