/**
 * The transaction sender when its transaction is next to mine and stays unmined. Against a real anvil with
 * automine off and `anvil_dropTransaction`: a transaction the node dropped is sent again as stored within
 * seconds, not at the 30 s re-broadcast; one the node then refuses (its fee cap now under the base fee) is
 * replaced at once with higher fees, not after the 2 minutes that make a transaction stuck. And one a node
 * that mines per transaction holds unmined (anvil's miner can skip a ready transaction for good) is replaced
 * at once: that node state cannot be brought about on demand, so a proxy answers `anvil_getAutomine` true in
 * front of an anvil holding the transaction with automine off.
 */
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type LocalAccount,
  parseTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTransactionSender,
  type TransactionSender,
} from '../../src/chains/create-transaction-sender.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { SignedTransaction, Store } from '../../src/store/types.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';
import { freePort } from '../harness/free-port.ts';
import { type RpcProxy, startRpcProxy } from '../resilience/support/rpc-proxy.ts';

/** Longest wait for the sender to act on a dropped transaction (ms): it looks every 3 s, on a loaded machine. */
const WAIT_MS = 20_000;
const PURPOSE = 'dropped-test';

let chain: TestChain;
let database: TestDatabase;
let store: Store;
let sender: TransactionSender;

beforeAll(async () => {
  [chain, database] = await Promise.all([
    startTestChain({ chainId: 7_770_453 }),
    createTestDatabase('sqlite'),
  ]);
  store = await createStore({ ...database.options, log: createSilentLogger() });
  // The production timing: only the dropped-transaction path can act within the test's waits.
  sender = createTransactionSender({
    journal: store.signedTransactions,
    clients: new Map([[chain.chainId, chain.publicClient as never]]),
    confirmations: () => 1,
    log: createSilentLogger(),
    timing: { pollIntervalMs: 50 },
  });
}, 60_000);
afterEach(async () => {
  await chain.testClient.setAutomine(true);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
  await chain?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function versionsAtNonce(nonce: number): Promise<SignedTransaction[]> {
  const relayer = chain.accounts.relayer.address;
  const rows = await store.signedTransactions.listAtNonces({
    chainId: chain.chainId,
    fromAddress: relayer,
    fromNonce: nonce,
    belowNonce: nonce + 1,
  });
  return rows.filter((r) => r.purpose === PURPOSE);
}

const nodeHolds = async (hash: string) =>
  (await chain.publicClient.request({ method: 'eth_getTransactionByHash', params: [hash as Hex] })) !== null;

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${WAIT_MS} ms: ${what}`);
    await sleep(50);
  }
}

/** The newest version at `nonce` once there are two and the node holds the newest. */
const replacementHeld = (nonce: number) =>
  until('a replacement the node holds', async () => {
    const rows = await versionsAtNonce(nonce);
    const newest = rows.at(-1);
    return rows.length >= 2 && newest && (await nodeHolds(newest.hash)) ? newest : undefined;
  });

/** Starts an approve from the relayer with automine off; resolves once the node holds it, with its journal row. */
async function sendHeld(amount: bigint, through: TransactionSender = sender) {
  const relayer = chain.accounts.relayer as LocalAccount;
  const nonce = await chain.publicClient.getTransactionCount({ address: relayer.address });
  await chain.testClient.setAutomine(false);
  const sending = through.sendOnce({
    chainId: chain.chainId,
    account: relayer,
    to: chain.tokens.usdc,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [chain.accounts.stranger.address, amount],
    }),
    purpose: PURPOSE,
  });
  const first = await until('the node holds the transaction', async () => {
    const [row] = await versionsAtNonce(nonce);
    return row && (await nodeHolds(row.hash)) ? row : undefined;
  });
  return { sending, first, nonce };
}

async function allowance(): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.tokens.usdc,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [chain.accounts.relayer.address, chain.accounts.stranger.address],
  });
}

describe('a transaction the node dropped', () => {
  it('is sent again as stored, and mines under its own hash', async () => {
    const { sending, first, nonce } = await sendHeld(11n);
    await chain.testClient.dropTransaction({ hash: first.hash as Hex });
    expect(await nodeHolds(first.hash)).toBe(false);

    await until('the node holds it again', async () => ((await nodeHolds(first.hash)) ? true : undefined));
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;

    expect(sent.hash).toBe(first.hash);
    expect(sent.receipt.status).toBe('success');
    expect((await versionsAtNonce(nonce)).map((r) => [r.hash, r.status])).toEqual([[first.hash, 'mined']]);
    expect(await allowance()).toBe(11n);
  }, 60_000);

  it('that the node then refuses is replaced at once with higher fees; the replacement mines', async () => {
    const { sending, first, nonce } = await sendHeld(12n);
    const signed = parseTransaction(first.raw as Hex) as TransactionSerializableEIP1559;
    // The base fee rises past the fee cap it was signed with, but not past a replacement's 5/4 of it.
    const baseFee = (signed.maxFeePerGas! * 11n) / 10n;
    await chain.testClient.dropTransaction({ hash: first.hash as Hex });
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: baseFee });

    const replacement = await replacementHeld(nonce);
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;

    expect(sent.hash).toBe(replacement.hash);
    expect(parseTransaction(replacement.raw as Hex).maxFeePerGas).toBe((signed.maxFeePerGas! * 5n) / 4n + 1n);
    const rows = await versionsAtNonce(nonce);
    expect(rows.map((r) => r.status)).toEqual(['replaced', 'mined']);
    expect(await allowance()).toBe(12n);
  }, 60_000);
});

describe('a transaction a node that mines per transaction holds unmined', () => {
  let proxy: RpcProxy;
  let viaProxy: TransactionSender;
  beforeAll(async () => {
    proxy = await startRpcProxy(chain.rpcUrl, await freePort());
    await proxy.setMode({ kind: 'answer', method: 'anvil_getAutomine', result: true });
    viaProxy = createTransactionSender({
      journal: store.signedTransactions,
      clients: new Map([
        [chain.chainId, createPublicClient({ chain: chain.chain, transport: http(proxy.url) })],
      ]),
      confirmations: () => 1,
      log: createSilentLogger(),
      timing: { pollIntervalMs: 50 },
    });
  });
  afterAll(() => proxy?.close());

  it('is replaced at once with higher fees; the replacement mines', async () => {
    const { sending, first, nonce } = await sendHeld(13n, viaProxy);
    const replacement = await replacementHeld(nonce);
    // Only the newest of the two can mine: one nonce.
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;

    expect(sent.hash).toBe(replacement.hash);
    const signed = parseTransaction(first.raw as Hex) as TransactionSerializableEIP1559;
    expect(parseTransaction(replacement.raw as Hex).maxFeePerGas).toBe((signed.maxFeePerGas! * 5n) / 4n + 1n);
    expect((await versionsAtNonce(nonce)).map((r) => r.status)).toEqual(['replaced', 'mined']);
    expect(await allowance()).toBe(13n);
  }, 60_000);

  it('is left alone by a node that does not mine per transaction (the usual wait for a block)', async () => {
    await proxy.setMode({ kind: 'answer', method: 'anvil_getAutomine', result: false });
    const { sending, first, nonce } = await sendHeld(14n, viaProxy);
    // Two looks of the sender (one every 3 s) pass with the transaction held.
    await sleep(7_000);
    expect((await versionsAtNonce(nonce)).map((r) => r.hash)).toEqual([first.hash]);
    await chain.testClient.mine({ blocks: 1 });
    expect((await sending).hash).toBe(first.hash);
    expect(await allowance()).toBe(14n);
  }, 60_000);
});
