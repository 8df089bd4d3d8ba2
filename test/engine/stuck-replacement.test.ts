/**
 * The transaction sender's stuck-transaction path against a real anvil with automine off: a transaction
 * that stays in the pool past `stuckAfterMs` is replaced at the same nonce with fees scaled by 5/4, every
 * version is journaled before it is broadcast, and once a block is mined exactly one of them is recorded
 * as mined, the others as replaced.
 */
import { encodeFunctionData, erc20Abi, type Hex, type LocalAccount, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransactionSender } from '../../src/chains/create-transaction-sender.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { SignedTransaction, Store } from '../../src/store/types.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';

/** Short on purpose: the path under test is "not mined for this long" (ms). */
const STUCK_AFTER_MS = 300;
/** Longest wait for the journal to show a replacement (ms), on a loaded machine. */
const WAIT_MS = 20_000;

let chain: TestChain;
let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  [chain, database] = await Promise.all([
    startTestChain({ chainId: 7_770_452 }),
    createTestDatabase('sqlite'),
  ]);
  store = await createStore({ ...database.options, log: createSilentLogger() });
}, 60_000);
afterAll(async () => {
  await chain?.testClient.setAutomine(true);
  await store?.close();
  await database?.drop();
  await chain?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function journalOf(from: string): Promise<SignedTransaction[]> {
  const rows = await store.signedTransactions.listUnconfirmed({ chainId: chain.chainId, fromAddress: from });
  return rows.filter((r) => r.purpose === 'stuck-test');
}

describe('a stuck transaction', () => {
  it('is replaced at the same nonce with higher fees; the mined version is recorded, the rest replaced', async () => {
    const relayer = chain.accounts.relayer as LocalAccount;
    const spender = chain.accounts.stranger.address;
    const sender = createTransactionSender({
      journal: store.signedTransactions,
      clients: new Map([[chain.chainId, chain.publicClient as never]]),
      confirmations: () => 1,
      log: createSilentLogger(),
      timing: { stuckAfterMs: STUCK_AFTER_MS, pollIntervalMs: 50 },
    });
    await chain.testClient.setAutomine(false);
    const sending = sender.sendOnce({
      chainId: chain.chainId,
      account: relayer,
      to: chain.tokens.usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 7n] }),
      purpose: 'stuck-test',
    });

    const deadline = Date.now() + WAIT_MS;
    let versions = await journalOf(relayer.address.toLowerCase());
    while (versions.length < 2) {
      if (Date.now() > deadline) throw new Error(`no replacement journaled after ${WAIT_MS} ms`);
      await sleep(50);
      versions = await journalOf(relayer.address.toLowerCase());
    }
    await chain.testClient.mine({ blocks: 1 });
    const sent = await sending;

    expect(await store.signedTransactions.listUnconfirmed({ chainId: chain.chainId })).toEqual([]);
    const nonce = versions[0]!.nonce;
    // Every version at the nonce, oldest first (more may have been signed while the block was mined).
    const rows = await store.signedTransactions.listAtNonces({
      chainId: chain.chainId,
      fromAddress: relayer.address,
      fromNonce: nonce,
      belowNonce: nonce + 1,
    });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((r) => r.status === 'mined').map((r) => r.hash)).toEqual([sent.hash]);
    expect(rows.filter((r) => r.hash !== sent.hash).map((r) => r.status)).toEqual(
      rows.slice(1).map(() => 'replaced'),
    );
    expect(await chain.publicClient.getTransactionCount({ address: relayer.address })).toBe(nonce + 1);

    // Each version pays 5/4 (+1 wei) of the one before it.
    const fees = rows.map((r) => parseTransaction(r.raw as Hex).maxFeePerGas!);
    for (let i = 1; i < fees.length; i++) expect(fees[i]).toBe((fees[i - 1]! * 5n) / 4n + 1n);
    expect(sent.receipt.status).toBe('success');
    const allowance = await chain.publicClient.readContract({
      address: chain.tokens.usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [relayer.address, spender],
    });
    expect(allowance).toBe(7n);
  }, 60_000);
});
