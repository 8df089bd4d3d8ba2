/**
 * The transaction sender's fees on real anvil chains, under the operator's per-chain ceiling
 * (`maxFeePerGasGwei`, here in wei):
 * - a base fee above the cap: the send waits, nothing signed, journaled or in the pool, and the wait is
 *   logged; once the base fee falls under the cap it goes out, signed at most at the cap;
 * - a stuck transaction is replaced with higher fees only while the cap leaves room for a replacement a node
 *   accepts (+10 %), every version at most at the cap, and the one mined is recorded;
 * - a chain without EIP-1559 (anvil at berlin: no base fee) gets legacy transactions at the node's gas
 *   price, waits while that is above the cap, and its stuck transactions are replaced with a higher gas price.
 */
import { type Hex, parseGwei, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTransactionSender,
  type TransactionSender,
} from '../../src/chains/create-transaction-sender.ts';
import { createLogger, type LogFields } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { SignedTransaction, Store } from '../../src/store/types.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';
import { type BareChain, startBareChain } from './support/bare-chain.ts';

/** Short on purpose: the paths under test are "not mined for this long" (ms). */
const STUCK_AFTER_MS = 300;
/** How long a waiting send is watched for anything going out (ms): several head polls and fee reads. */
const WATCH_MS = 2_500;
/** Longest wait for a condition on a loaded machine (ms). */
const WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`);
    await sleep(50);
  }
}

let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  store = await createStore({ ...database.options, log: createLogger({ level: 'error', write: () => {} }) });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

interface Harness {
  sender: TransactionSender;
  logs: LogFields[];
}

function senderFor(chain: BareChain, capWei: bigint): Harness {
  const logs: LogFields[] = [];
  const sender = createTransactionSender({
    journal: store.signedTransactions,
    clients: new Map([[chain.chainId, chain.publicClient as never]]),
    confirmations: () => 1,
    maxFeePerGas: () => capWei,
    log: createLogger({ level: 'info', format: 'json', write: (line) => logs.push(JSON.parse(line)) }),
    timing: { stuckAfterMs: STUCK_AFTER_MS, pollIntervalMs: 50 },
  });
  return { sender, logs };
}

function send(chain: BareChain, sender: TransactionSender, purpose: string) {
  return sender.sendOnce({
    chainId: chain.chainId,
    account: chain.relayer,
    to: chain.recipient.address,
    data: '0x',
    value: 1n,
    purpose,
  });
}

/** Every journaled version of the relayer's transactions for a purpose, oldest first. */
async function versions(chain: BareChain, purpose: string): Promise<SignedTransaction[]> {
  const rows = await store.signedTransactions.listAtNonces({
    chainId: chain.chainId,
    fromAddress: chain.relayer.address,
    fromNonce: 0,
    belowNonce: 1_000,
  });
  return rows.filter((r) => r.purpose === purpose);
}

async function poolSize(chain: BareChain): Promise<number> {
  const content = await chain.testClient.getTxpoolContent();
  return [content.pending, content.queued].flatMap((byAddress) =>
    Object.values(byAddress).flatMap((byNonce) => Object.values(byNonce)),
  ).length;
}

const messages = (logs: LogFields[]) => logs.map((l) => String(l.msg));

describe('EIP-1559 fees under a cap', () => {
  let chain: BareChain;
  beforeAll(async () => {
    chain = await startBareChain({ chainId: 7_770_471, baseFeePerGas: parseGwei('10') });
  }, 60_000);
  afterAll(async () => {
    await chain?.testClient.setAutomine(true);
    await chain?.stop();
  });

  it('waits, unsigned, while the base fee is above the cap, and goes out under it once the base fee falls', async () => {
    const cap = parseGwei('5');
    const { sender, logs } = senderFor(chain, cap);
    const sending = send(chain, sender, 'cap-wait');
    let outcome: 'pending' | 'sent' | 'failed' = 'pending';
    sending.then(
      () => (outcome = 'sent'),
      () => (outcome = 'failed'),
    );

    await sleep(WATCH_MS);
    expect(outcome).toBe('pending');
    expect(await versions(chain, 'cap-wait')).toEqual([]);
    expect(await poolSize(chain)).toBe(0);
    expect(await chain.publicClient.getTransactionCount({ address: chain.relayer.address })).toBe(0);
    const wait = logs.find((l) => String(l.msg).includes('maxFeePerGasGwei cap'));
    expect(wait).toMatchObject({ level: 'warn', chainId: chain.chainId, askedGwei: '10', capGwei: '5' });

    // The base fee falls to 2 gwei: under the cap, the transaction is signed and mined.
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('2') });
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;
    expect(sent.receipt.status).toBe('success');
    const [signed, ...others] = await versions(chain, 'cap-wait');
    expect(others).toEqual([]);
    const tx = parseTransaction(signed!.raw as Hex);
    expect(tx.type).toBe('eip1559');
    // 2 × 2 gwei + 1 gwei tip wanted, cut to the 5 gwei cap.
    expect(tx.maxFeePerGas).toBe(cap);
    expect(tx.maxPriorityFeePerGas).toBe(parseGwei('1'));
    expect(messages(logs)).toContain(
      'the chain fee is under the cap again: the waiting transaction is signed',
    );
  }, 60_000);

  it('replaces a stuck transaction while the cap leaves room, never above the cap, then waits as signed', async () => {
    // Base fee 1 gwei, tip 1 gwei: signed at 3 gwei; one replacement at 3.75 gwei fits under 4 gwei, a
    // second would be cut to 4 gwei, less than the +10 % a node accepts.
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') });
    await chain.testClient.mine({ blocks: 1 });
    const cap = parseGwei('4');
    const { sender, logs } = senderFor(chain, cap);
    await chain.testClient.setAutomine(false);
    const sending = send(chain, sender, 'cap-stuck');

    await until('a replacement', async () => (await versions(chain, 'cap-stuck')).length >= 2);
    await until('the cap reported', async () => messages(logs).some((m) => m.includes('cannot be replaced')));
    await sleep(STUCK_AFTER_MS * 4);
    const rows = await versions(chain, 'cap-stuck');
    const fees = rows.map((r) => parseTransaction(r.raw as Hex).maxFeePerGas!);
    expect(fees).toEqual([parseGwei('3'), (parseGwei('3') * 5n) / 4n + 1n]);
    for (const fee of fees) expect(fee).toBeLessThanOrEqual(cap);

    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;
    expect(sent.receipt.status).toBe('success');
    const final = await versions(chain, 'cap-stuck');
    expect(final.filter((r) => r.status === 'mined').map((r) => r.hash)).toEqual([sent.hash]);
    expect(final.filter((r) => r.hash !== sent.hash).map((r) => r.status)).toEqual(['replaced']);
  }, 60_000);
});

describe('a chain without EIP-1559 (legacy gas price)', () => {
  let chain: BareChain;
  beforeAll(async () => {
    chain = await startBareChain({ chainId: 7_770_472, hardfork: 'berlin' });
  }, 60_000);
  afterAll(async () => {
    await chain?.testClient.setAutomine(true);
    await chain?.stop();
  });

  it('signs legacy transactions at the node gas price, and waits while that is above the cap', async () => {
    const gasPrice = await chain.publicClient.getGasPrice();
    expect((await chain.publicClient.getBlock()).baseFeePerGas).toBeNull();

    const low = senderFor(chain, gasPrice - 1n);
    const waiting = send(chain, low.sender, 'legacy-wait');
    let outcome: 'pending' | 'sent' | 'failed' = 'pending';
    waiting.then(
      () => (outcome = 'sent'),
      () => (outcome = 'failed'),
    );
    await sleep(WATCH_MS);
    expect(outcome).toBe('pending');
    expect(await versions(chain, 'legacy-wait')).toEqual([]);
    expect(await poolSize(chain)).toBe(0);
    expect(low.logs.some((l) => l.level === 'warn' && String(l.msg).includes('cap'))).toBe(true);

    const { sender } = senderFor(chain, gasPrice * 2n);
    const sent = await send(chain, sender, 'legacy-send');
    expect(sent.receipt.status).toBe('success');
    const [signed] = await versions(chain, 'legacy-send');
    const tx = parseTransaction(signed!.raw as Hex);
    expect(tx.type).toBe('legacy');
    expect(tx.gasPrice).toBe(gasPrice);
    expect(tx.chainId).toBe(chain.chainId);
    expect(sent.receipt.from.toLowerCase()).toBe(chain.relayer.address.toLowerCase());
  }, 60_000);

  it('replaces a stuck legacy transaction with a higher gas price under the cap', async () => {
    const gasPrice = await chain.publicClient.getGasPrice();
    const cap = gasPrice * 2n;
    const { sender } = senderFor(chain, cap);
    await chain.testClient.setAutomine(false);
    const sending = send(chain, sender, 'legacy-stuck');
    await until('a replacement', async () => (await versions(chain, 'legacy-stuck')).length >= 2);
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;
    expect(sent.receipt.status).toBe('success');
    const rows = await versions(chain, 'legacy-stuck');
    const prices = rows.map((r) => parseTransaction(r.raw as Hex).gasPrice!);
    expect(rows.every((r) => parseTransaction(r.raw as Hex).type === 'legacy')).toBe(true);
    expect(prices[1]).toBe((prices[0]! * 5n) / 4n + 1n);
    for (const price of prices) expect(price).toBeLessThanOrEqual(cap);
    expect(rows.filter((r) => r.status === 'mined').map((r) => r.hash)).toEqual([sent.hash]);
  }, 60_000);
});
