/**
 * GetIntentHistory and GetIntentTransactionHistory through the official client (`@0xtrails/api`
 * 0.9.4) against a listening server, on SQLite and on Postgres: every filter, keyset pages walked
 * with `nextPage` sent back verbatim on both columns and both orders, and balances read on the
 * devnet's chains.
 */
import { PermissionDeniedError, SortOrder, TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, parseUnits } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { intentFixture, randomAddress } from '../../bench/fixtures/wire-intent.ts';
import { createApiServer } from '../../src/api/server.ts';
import { sendAndWait } from '../../src/devnet/send-and-wait.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { IntentStatus, Store } from '../../src/store/index.ts';
import { describeEachDialect } from '../harness/database.ts';
import { startTestDevnet, type TestDevnet } from '../harness/devnet.ts';

const BASE_SECONDS = 1_750_000_000;
const INTENT_COUNT = 45;
/** Statuses cycle through these; each is reached from QUOTED by moving forward only. */
const STATUS_CYCLE: IntentStatus[] = ['QUOTED', 'COMMITTED', 'SUCCEEDED', 'FAILED'];
const PATH_TO: Record<string, IntentStatus[]> = {
  QUOTED: [],
  COMMITTED: ['COMMITTED'],
  SUCCEEDED: ['COMMITTED', 'EXECUTING', 'SUCCEEDED'],
  FAILED: ['COMMITTED', 'EXECUTING', 'FAILED'],
};

let net: TestDevnet;
beforeAll(async () => {
  net = await startTestDevnet();
});
afterAll(() => net?.stop());

interface Stored {
  id: number;
  intentId: string;
  owner: string;
  status: IntentStatus;
  originChainId: number;
  destinationChainId: number;
  /** Unix seconds. */
  created: number;
}

// The 0.9.4 client's request types predate these filters; it sends whatever the object holds.
type HistoryRequest = Parameters<TrailsApi['getIntentHistory']>[0] & {
  byStatus?: IntentStatus;
  byStatuses?: IntentStatus[];
  originChainId?: number;
  destinationChainId?: number;
  fromTime?: number;
  toTime?: number;
  includeBalances?: boolean;
  onlyRecoverable?: boolean;
  byParticipantAddresses?: string[];
};
type HistoryEntry = Awaited<ReturnType<TrailsApi['getIntentHistory']>>['intents'][number] & {
  hasBalance?: boolean;
  balances?: {
    intentAddress: string;
    chainId: number;
    tokens: { contractAddress: string; balance: string; symbol: string }[];
  }[];
};

describeEachDialect('history reads through the official client', (db) => {
  const ownerX = randomAddress();
  const ownerY = randomAddress();
  const stored: Stored[] = [];
  let api: TrailsApi;
  let projectA: number;
  let store: Store;

  const history = async (request: HistoryRequest) => {
    const response = await api.getIntentHistory(request);
    return { ...response, intents: response.intents as HistoryEntry[] };
  };

  /** Every page of a query, following nextPage verbatim until `more` is false. */
  async function walk(request: HistoryRequest): Promise<string[][]> {
    const pages: string[][] = [];
    let page = request.page;
    for (;;) {
      const response = await history({ ...request, page });
      pages.push(response.intents.map((e) => e.intentId));
      if (!response.nextPage?.more) return pages;
      if (pages.length > INTENT_COUNT) throw new Error('paging did not end');
      page = response.nextPage;
    }
  }

  const idsOf = (list: Stored[]) => list.map((s) => s.intentId);
  const byId = (a: Stored, b: Stored) => a.id - b.id;
  const byCreated = (a: Stored, b: Stored) => a.created - b.created || a.id - b.id;
  const chunk = (list: string[], size: number) =>
    Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

  beforeAll(async () => {
    store = await db.openStore();
    projectA = (await store.projects.create('a')).id;
    const projectB = (await store.projects.create('b')).id;
    const key = (await store.accessKeys.create({ projectId: projectA })).key;
    const [alpha, beta, gamma] = net.chains.map((c) => c.entry) as [
      TestDevnet['chains'][0]['entry'],
      TestDevnet['chains'][0]['entry'],
      TestDevnet['chains'][0]['entry'],
    ];
    for (let i = 0; i < INTENT_COUNT; i++) {
      const origin = i % 2 === 0 ? alpha : beta;
      const destination = i % 5 === 0 ? gamma : i % 2 === 0 ? beta : alpha;
      // Creation times out of insertion order, two intents per minute: createdAt paging must tie-break.
      const created = BASE_SECONDS + ((i * 7) % 23) * 60;
      const owner = i % 3 === 0 ? ownerY : ownerX;
      const status = STATUS_CYCLE[i % STATUS_CYCLE.length]!;
      const fixture = intentFixture({
        projectId: projectA,
        ownerAddress: owner,
        originChainId: origin.chainId,
        destinationChainId: destination.chainId,
        originTokenAddress: origin.tokens.USDC!.toLowerCase(),
        destinationTokenAddress: destination.tokens.DAI!.toLowerCase(),
        createdAt: new Date(created * 1000),
      });
      const record = await store.intents.insert(fixture.intent);
      for (const tx of fixture.transactions) await store.transactions.upsert(tx);
      for (const to of PATH_TO[status]!) await store.intents.updateStatus({ intentId: record.intentId, to });
      stored.push({
        id: record.id,
        intentId: record.intentId,
        owner,
        status,
        originChainId: origin.chainId,
        destinationChainId: destination.chainId,
        created,
      });
    }
    // Another project's intent by the same owner never shows up.
    const foreign = intentFixture({
      projectId: projectB,
      ownerAddress: ownerX,
      originChainId: alpha.chainId,
      destinationChainId: beta.chainId,
      originTokenAddress: alpha.tokens.USDC!,
      destinationTokenAddress: beta.tokens.USDC!,
    });
    await store.intents.insert(foreign.intent);
    const server = await createApiServer({
      chains: net.chainConfigs,
      store,
      log: createSilentLogger(),
      rateLimit: false,
    });
    api = new TrailsApi(key, { hostname: await server.listen(0, '127.0.0.1') });
    return () => server.close();
  });

  it('pages of the default 20 by id, newest first, until more is false', async () => {
    const pages = await walk({});
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);
    expect(pages.flat()).toEqual(idsOf([...stored].sort(byId).reverse()));
  });

  it('custom page size on id and createdAt, ASC and DESC, nextPage sent back verbatim', async () => {
    const size = 7;
    const cases = [
      { column: 'id', order: SortOrder.ASC, expected: [...stored].sort(byId) },
      { column: 'id', order: SortOrder.DESC, expected: [...stored].sort(byId).reverse() },
      { column: 'createdAt', order: SortOrder.ASC, expected: [...stored].sort(byCreated) },
      { column: 'createdAt', order: SortOrder.DESC, expected: [...stored].sort(byCreated).reverse() },
    ] as const;
    for (const { column, order, expected } of cases) {
      const pages = await walk({ page: { column, sort: [{ column, order }], pageSize: size } });
      expect(pages, `${column} ${order}`).toEqual(chunk(idsOf(expected), size));
    }
  });

  it('filters by owner, status, statuses (over status), chains and time, AND-ed', async () => {
    const all = async (request: HistoryRequest) => (await walk(request)).flat().sort();
    const expect_ = (pred: (s: Stored) => boolean) => idsOf(stored.filter(pred)).sort();
    expect(await all({ byOwnerAddress: ownerY })).toEqual(expect_((s) => s.owner === ownerY));
    expect(await all({ byStatus: 'FAILED' })).toEqual(expect_((s) => s.status === 'FAILED'));
    expect(await all({ byStatus: 'FAILED', byStatuses: ['QUOTED', 'SUCCEEDED'] })).toEqual(
      expect_((s) => s.status === 'QUOTED' || s.status === 'SUCCEEDED'),
    );
    const [alpha, , gamma] = net.chains.map((c) => c.entry.chainId);
    expect(await all({ originChainId: alpha })).toEqual(expect_((s) => s.originChainId === alpha));
    expect(await all({ destinationChainId: gamma })).toEqual(expect_((s) => s.destinationChainId === gamma));
    const fromTime = BASE_SECONDS + 5 * 60;
    const toTime = BASE_SECONDS + 10 * 60;
    expect(await all({ fromTime, toTime })).toEqual(
      expect_((s) => s.created >= fromTime && s.created <= toTime),
    );
    expect(await all({ fromTime: toTime + 1, toTime: fromTime })).toEqual([]);
    expect(
      await all({
        byOwnerAddress: ownerX,
        byStatus: 'COMMITTED',
        originChainId: net.chains[1]!.entry.chainId,
      }),
    ).toEqual(
      expect_(
        (s) =>
          s.owner === ownerX && s.status === 'COMMITTED' && s.originChainId === net.chains[1]!.entry.chainId,
      ),
    );
    expect(await all({ byOwnerAddress: randomAddress() })).toEqual([]);
    await expect(api.getIntentHistory({ byProjectId: projectA + 1000 })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(await all({ byProjectId: projectA })).toHaveLength(INTENT_COUNT);
  });

  it('entries carry the full receipt with bigints decoded', async () => {
    const { intents } = await history({ page: { pageSize: 3 } });
    for (const entry of intents) {
      const known = stored.find((s) => s.intentId === entry.intentId)!;
      expect(entry.status).toBe(known.status);
      expect(entry.receipt.status).toBe(known.status);
      expect(typeof entry.receipt.summary.originTokenAmount).toBe('bigint');
      expect(typeof entry.receipt.depositTransaction.tokenAmount).toBe('bigint');
      expect(typeof entry.receipt.destinationTransaction!.tokenAmount).toBe('bigint');
      expect(entry.receipt.depositTransaction.txnHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(entry.receipt.summary.originTokenMetadata.symbol).toBe('USDC');
      expect(entry.balances).toBeUndefined();
    }
  });

  it('includeBalances reads the intent addresses on-chain; onlyRecoverable keeps the funded one', async () => {
    const alpha = net.chains[0]!;
    const owner = randomAddress();
    const usdc = alpha.entry.tokens.USDC as Address;
    const fixtures = [0, 1].map(() =>
      intentFixture({
        projectId: projectA,
        ownerAddress: owner,
        originChainId: alpha.entry.chainId,
        destinationChainId: net.chains[1]!.entry.chainId,
        originTokenAddress: usdc,
        destinationTokenAddress: net.chains[1]!.entry.tokens.USDC!,
      }),
    );
    for (const f of fixtures) await store.intents.insert(f.intent);
    const [funded, empty] = fixtures as [(typeof fixtures)[0], (typeof fixtures)[0]];
    const amount = parseUnits('25', 6);
    const user = alpha.walletFor('user');
    await sendAndWait(
      { publicClient: alpha.publicClient, walletClient: user },
      {
        address: usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [funded.intent.originIntentAddress as Address, amount],
      },
    );

    const { intents } = await history({ byOwnerAddress: owner, includeBalances: true });
    expect(intents.map((e) => e.intentId)).toEqual([empty.intent.intentId, funded.intent.intentId]);
    const [emptyEntry, fundedEntry] = intents as [HistoryEntry, HistoryEntry];
    expect(emptyEntry.hasBalance).toBe(false);
    expect(fundedEntry.hasBalance).toBe(true);
    const origin = fundedEntry.balances!.find((b) => b.chainId === alpha.entry.chainId)!;
    expect(origin.intentAddress).toBe(funded.intent.originIntentAddress);
    expect(origin.tokens).toEqual([expect.objectContaining({ symbol: 'USDC', balance: amount.toString() })]);

    const recoverable = await history({ byOwnerAddress: owner, onlyRecoverable: true });
    expect(recoverable.intents.map((e) => e.intentId)).toEqual([funded.intent.intentId]);
  });

  it('onlyRecoverable finds a deposit on the wrong chain and one of the wrong token, with their balances', async () => {
    const [alpha, beta] = net.chains as [TestDevnet['chains'][0], TestDevnet['chains'][0]];
    const owner = randomAddress();
    const usdcAlpha = alpha.entry.tokens.USDC as Address;
    const [wrongChain, wrongToken, untouched] = [0, 1, 2].map(() =>
      intentFixture({
        projectId: projectA,
        ownerAddress: owner,
        originChainId: alpha.entry.chainId,
        destinationChainId: beta.entry.chainId,
        originTokenAddress: usdcAlpha,
        destinationTokenAddress: beta.entry.tokens.USDC!,
      }),
    ) as [
      ReturnType<typeof intentFixture>,
      ReturnType<typeof intentFixture>,
      ReturnType<typeof intentFixture>,
    ];
    for (const f of [wrongChain, wrongToken, untouched]) await store.intents.insert(f.intent);
    const send = async (chain: TestDevnet['chains'][0], token: Address, to: string, amount: bigint) =>
      sendAndWait(
        { publicClient: chain.publicClient, walletClient: chain.walletFor('user') },
        { address: token, abi: erc20Abi, functionName: 'transfer', args: [to as Address, amount] },
      );
    // USDC meant for alpha sent on beta, to the same address; DAI on alpha where USDC was expected.
    const usdcOnBeta = parseUnits('7.5', 6);
    const daiOnAlpha = parseUnits('3', 18);
    await send(beta, beta.entry.tokens.USDC as Address, wrongChain.intent.originIntentAddress, usdcOnBeta);
    await send(alpha, alpha.entry.tokens.DAI as Address, wrongToken.intent.originIntentAddress, daiOnAlpha);

    const { intents } = await history({ byOwnerAddress: owner, onlyRecoverable: true });
    expect(intents.map((e) => e.intentId)).toEqual([wrongToken.intent.intentId, wrongChain.intent.intentId]);
    const [daiEntry, usdcEntry] = intents as [HistoryEntry, HistoryEntry];
    expect(usdcEntry.hasBalance).toBe(true);
    const onBeta = usdcEntry.balances!.filter((b) => b.tokens.length > 0);
    expect(onBeta).toEqual([
      {
        intentAddress: wrongChain.intent.originIntentAddress.toLowerCase(),
        chainId: beta.entry.chainId,
        tokens: [
          expect.objectContaining({
            contractAddress: (beta.entry.tokens.USDC as string).toLowerCase(),
            symbol: 'USDC',
            balance: usdcOnBeta.toString(),
          }),
        ],
      },
    ]);
    const onAlpha = daiEntry.balances!.find((b) => b.chainId === alpha.entry.chainId)!;
    expect(onAlpha.intentAddress).toBe(wrongToken.intent.originIntentAddress.toLowerCase());
    expect(onAlpha.tokens).toEqual([
      expect.objectContaining({ symbol: 'DAI', balance: daiOnAlpha.toString() }),
    ]);

    // includeBalances shows the same, and the untouched intent with nothing.
    const all = await history({ byOwnerAddress: owner, includeBalances: true });
    expect(all.intents.map((e) => [e.intentId, e.hasBalance])).toEqual([
      [untouched.intent.intentId, false],
      [wrongToken.intent.intentId, true],
      [wrongChain.intent.intentId, true],
    ]);
  });

  it('byParticipantAddresses lists the intents an address owns or is paid by, paged, AND-ed with the owner', async () => {
    const [alpha, beta] = net.chains.map((c) => c.entry) as [
      TestDevnet['chains'][0]['entry'],
      TestDevnet['chains'][0]['entry'],
    ];
    const payer = randomAddress();
    const recipient = randomAddress();
    const fixture = (owner: string, to: string) => {
      const f = intentFixture({
        projectId: projectA,
        ownerAddress: owner,
        originChainId: alpha.chainId,
        destinationChainId: beta.chainId,
        originTokenAddress: alpha.tokens.USDC!.toLowerCase(),
        destinationTokenAddress: beta.tokens.USDC!.toLowerCase(),
      });
      (
        f.intent.intent as { quoteRequest: { destinationToAddress: string } }
      ).quoteRequest.destinationToAddress = to;
      return f;
    };
    const paid = fixture(payer, recipient.toUpperCase().replace('0X', '0x'));
    const owned = fixture(recipient, payer);
    for (const f of [paid, owned]) await store.intents.insert(f.intent);

    expect(await walk({ byParticipantAddresses: [recipient], page: { pageSize: 1 } })).toEqual([
      [owned.intent.intentId],
      [paid.intent.intentId],
    ]);
    const both = await history({ byParticipantAddresses: [payer, recipient, ownerY] });
    expect(both.intents.map((e) => e.intentId).slice(0, 2)).toEqual([
      owned.intent.intentId,
      paid.intent.intentId,
    ]);
    expect(both.intents.slice(2).every((e) => e.receipt.ownerAddress === ownerY)).toBe(true);
    const byPayer = await history({ byParticipantAddresses: [recipient], byOwnerAddress: payer });
    expect(byPayer.intents.map((e) => e.intentId)).toEqual([paid.intent.intentId]);
    expect((await history({ byParticipantAddresses: [randomAddress()] })).intents).toEqual([]);
  });

  it('GetIntentTransactionHistory pages summaries by owner with hashes and bigint amounts', async () => {
    const expected = idsOf(
      stored
        .filter((s) => s.owner === ownerX)
        .sort(byId)
        .reverse(),
    );
    const pages: string[][] = [];
    let page: Parameters<TrailsApi['getIntentTransactionHistory']>[0]['page'] = { pageSize: 8 };
    for (;;) {
      const response = await api.getIntentTransactionHistory({ byOwnerAddress: ownerX, page });
      pages.push(response.intents.map((s) => s.intentId));
      for (const summary of response.intents) {
        expect(typeof summary.originTokenAmount).toBe('bigint');
        expect(typeof summary.destinationTokenAmount).toBe('bigint');
        expect(summary.depositTransactionHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(summary.destinationTransactionStatus).toBe('SUCCEEDED');
        expect(summary.ownerAddress).toBe(ownerX);
      }
      if (!response.nextPage?.more) break;
      page = response.nextPage;
    }
    expect(pages).toEqual(chunk(expected, 8));
    await expect(api.getIntentTransactionHistory({ byProjectId: projectA + 1000 })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });
});
