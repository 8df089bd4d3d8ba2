/**
 * ExecuteIntent naming a transaction that is not the intent's deposit, through the official client against
 * the whole service (real engine) on the devnet: another intent's deposit, another project's, a plain
 * transfer elsewhere, or a transaction not mined yet that turns out to pay someone else. A mined one is
 * refused at once naming `depositTransactionHash` and nothing is recorded; an unmined one is accepted but
 * never shown as the deposit nor found by SearchIntents; the real deposit still executes, under its own hash.
 */
import { type Intent, InvalidArgumentError, type QuoteIntentRequest, TrailsApi } from '@0xtrails/api';
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { waitUntilDone } from '../e2e/support/run-intent.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { freshAddress } from './support/engine-fixture.ts';

const usdc = (n: string) => parseUnits(n, 6);

let svc: E2eService;
let api: TrailsApi;
/** A second project's client on the same service. */
let otherApi: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
  const other = await svc.store.projects.create('foreign-deposit-other');
  const { key } = await svc.store.accessKeys.create({ projectId: other.id, label: 'other' });
  otherApi = new TrailsApi(key, { hostname: svc.url });
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

function request(token: 'USDC' | 'ETH', amount: bigint, to: TestDevnetChain = beta): QuoteIntentRequest {
  const origin = token === 'ETH' ? zeroAddress : alpha.entry.tokens.USDC!;
  return {
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: origin,
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: to.entry.tokens.USDC!,
    destinationToAddress: freshAddress(),
    originTokenAmount: amount,
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT' as never,
  };
}

async function committed(client: TrailsApi, req: QuoteIntentRequest): Promise<Intent> {
  const { intent } = await client.quoteIntent(req);
  await client.commitIntent({ intent });
  return intent;
}

/** The user's deposit exactly as the quote describes it; returns its hash, mined unless `mine` is false. */
async function deposit(intent: Intent, mine = true): Promise<Hex> {
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex; value?: string };
  const hash = await alpha.walletFor('user').sendTransaction({
    to: raw.to,
    data: raw.data,
    value: BigInt(raw.value ?? 0),
  });
  if (mine) await alpha.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** SearchIntents by deposit hash: the seed spec's filter, which client 0.9.4's request type lacks (it sends it). */
const searchByDeposit = (hash: Hex) =>
  api.searchIntents({ byDepositTransactionHash: hash } as Parameters<TrailsApi['searchIntents']>[0]);

async function refused(client: TrailsApi, intentId: string, hash: Hex): Promise<InvalidArgumentError> {
  const error = await client.executeIntent({ intentId, depositTransactionHash: hash }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidArgumentError);
  const message = (error as InvalidArgumentError).message;
  expect(message).toContain('depositTransactionHash:');
  expect(message).toContain(hash);
  return error as InvalidArgumentError;
}

/** Nothing of `hash` is recorded on the intent: status, receipt row, search. */
async function expectNothingRecorded(intentId: string, hash: Hex, status = 'COMMITTED'): Promise<void> {
  const record = await svc.store.intents.getForEngine(intentId);
  expect(record?.status).toBe(status);
  expect(record?.depositTransactionHash ?? null).not.toBe(hash.toLowerCase());
  const { intentReceipt } = await api.getIntentReceipt({ intentId });
  expect(intentReceipt.depositTransaction.txnHash ?? null).not.toBe(hash.toLowerCase());
  const found = await searchByDeposit(hash);
  expect(found.intents.map((i) => i.intentId)).not.toContain(intentId);
  const anyKind = await api.searchIntents({ byTransactionHash: hash });
  expect(anyKind.intents.map((i) => i.intentId)).not.toContain(intentId);
}

/** Waits for SUCCEEDED; the receipt names `hash` as the deposit, from the user, at its block's time. */
async function expectExecutedWith(intent: Intent, hash: Hex): Promise<void> {
  const { receipt } = await waitUntilDone(api, intent.intentId);
  expect(receipt.status).toBe('SUCCEEDED');
  const row = receipt.depositTransaction;
  expect(row.txnHash).toBe(hash.toLowerCase());
  expect(row.fromAddress.toLowerCase()).toBe(user.toLowerCase());
  const mined = await alpha.publicClient.getTransactionReceipt({ hash });
  const block = await alpha.publicClient.getBlock({ blockNumber: mined.blockNumber });
  expect(row.txnMinedAt).toBe(new Date(Number(block.timestamp) * 1000).toISOString());
  const recipient = intent.quoteRequest.destinationToAddress as Address;
  expect(await balanceOf(beta, beta.entry.tokens.USDC!, recipient)).toBeGreaterThanOrEqual(
    intent.quote.toAmountMin,
  );
  const found = await searchByDeposit(hash);
  expect(found.intents.map((i) => i.intentId)).toEqual([intent.intentId]);
}

describe('ExecuteIntent with a deposit hash that is not the intent’s deposit', () => {
  it('another intent’s and another project’s deposits are InvalidArgument naming depositTransactionHash, nothing is recorded, and the real deposit still executes', async () => {
    const target = await committed(api, request('USDC', usdc('30')));
    const sibling = await committed(api, request('USDC', usdc('20')));
    const foreign = await committed(otherApi, request('USDC', usdc('25')));
    const siblingHash = await deposit(sibling);
    const foreignHash = await deposit(foreign);
    // A USDC transfer from the owner to someone else: it does not pay the address.
    const elsewhere = await alpha.walletFor('user').sendTransaction({
      to: alpha.entry.tokens.USDC!,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [freshAddress(), 1n] }),
    });
    await alpha.publicClient.waitForTransactionReceipt({ hash: elsewhere });

    for (const hash of [siblingHash, foreignHash, elsewhere]) {
      const error = await refused(api, target.intentId, hash);
      expect(error.message).toMatch(/pays the intent address 0x[0-9a-fA-F]{40} nothing of token/);
      await expectNothingRecorded(target.intentId, hash);
    }
    // A reverted transaction that would have paid it moved nothing.
    const reverted = await alpha.walletFor('user').sendTransaction({
      to: alpha.entry.tokens.USDC!,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transferFrom',
        args: [freshAddress(), target.originIntentAddress as Address, 1n],
      }),
      gas: 200_000n,
    });
    expect((await alpha.publicClient.waitForTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    expect((await refused(api, target.intentId, reverted)).message).toContain('reverted');
    await expectNothingRecorded(target.intentId, reverted);

    // The other intents are theirs: each executes under its own hash.
    await expectExecutedWith(sibling, siblingHash);
    const realHash = await deposit(target);
    await api.executeIntent({ intentId: target.intentId, depositTransactionHash: realHash });
    await expectExecutedWith(target, realHash);
    await expectNothingRecorded(target.intentId, siblingHash, 'SUCCEEDED');
  }, 90_000);

  it('a native payment elsewhere is refused for a native intent, whose own deposit then executes', async () => {
    const target = await committed(api, request('ETH', parseEther('0.05')));
    const elsewhere = await alpha.walletFor('user').sendTransaction({ to: freshAddress(), value: 1n });
    await alpha.publicClient.waitForTransactionReceipt({ hash: elsewhere });
    const error = await refused(api, target.intentId, elsewhere);
    expect(error.message).toContain('nothing of the native currency');
    await expectNothingRecorded(target.intentId, elsewhere);

    const realHash = await deposit(target);
    await api.executeIntent({ intentId: target.intentId, depositTransactionHash: realHash });
    await expectExecutedWith(target, realHash);
  }, 60_000);

  it('an unmined hash is accepted as a claim, never shown once it is mined paying someone else; the real deposit shows', async () => {
    const target = await committed(api, request('USDC', usdc('15')));
    await alpha.testClient.setAutomine(false);
    let pendingElsewhere: Hex;
    try {
      pendingElsewhere = await alpha.walletFor('user').sendTransaction({
        to: alpha.entry.tokens.USDC!,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [freshAddress(), 1n] }),
      });
      const accepted = await api.executeIntent({
        intentId: target.intentId,
        depositTransactionHash: pendingElsewhere,
      });
      expect(accepted.intentStatus).toBe('EXECUTING');
      const { intentReceipt } = await api.getIntentReceipt({ intentId: target.intentId });
      expect(intentReceipt.depositTransaction.txnHash ?? null).toBeNull();
      await alpha.testClient.mine({ blocks: 1 });
    } finally {
      await alpha.testClient.setAutomine(true);
    }
    const realHash = await deposit(target);
    await expectExecutedWith(target, realHash);
    const found = await api.searchIntents({ byTransactionHash: pendingElsewhere });
    expect(found.intents).toEqual([]);
  }, 60_000);
});
