/**
 * Restoring lost transactions (src/chains/restore-lost-transactions.ts) against a real anvil: two keys'
 * transactions, the second spending what the first sent (the solver funds the relayer, the relayer passes it
 * on), are journaled mined and then lost (`evm_revert` to before them: what a node restarted from an older
 * state looks like). Sent again in their first order, same hashes, both succeed; in the other order the
 * relayer's would revert. Once through the sender's trigger (a later relayer send waiting behind its nonce
 * gap restores the solver's transaction too), once with nothing sent after them (restoreLost, what the
 * engine's chain watch calls when the chain comes back). Then the restore's lifecycle: stopped while it
 * waits for a block (automine off), it returns at once and sends nothing after, and the next process
 * finishes it; rows a crash left `broadcast` mid-restore are sent in their first order by the next run, and
 * the start-up re-broadcast leaves them alone. At a confirmation depth above 1, a row sent again is recorded
 * `mined` only at that depth, and the next one is sent only then.
 */
import { encodeFunctionData, erc20Abi, type Hex, type LocalAccount } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTransactionSender,
  type TransactionSender,
} from '../../src/chains/create-transaction-sender.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { SignedTransaction, Store } from '../../src/store/types.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';

/** Moved from the solver to the relayer and on to the stranger (USDC base units). */
const AMOUNT = 100_000_000n;
/** The senders' receipt poll (ms). */
const POLL_MS = 50;
/**
 * stopRestoring() of a run waiting for a block returns within this (ms): it ends the wait at once and its
 * run returns at the next statement; generous for a loaded 2-core machine, far below the run's 60 s wait.
 */
const STOP_BOUND_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let chain: TestChain;
let database: TestDatabase;
let store: Store;
let sender: TransactionSender;
let solver: LocalAccount;
let relayer: LocalAccount;

beforeAll(async () => {
  [chain, database] = await Promise.all([
    startTestChain({ chainId: 7_770_461 }),
    createTestDatabase('sqlite'),
  ]);
  store = await createStore({ ...database.options, log: createSilentLogger() });
  solver = chain.accounts.solver as LocalAccount;
  relayer = chain.accounts.relayer as LocalAccount;
  sender = newSender();
}, 60_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
  await chain?.stop();
});

/** A sender as a process has it at start: nothing sent yet, the operator keys known. */
function newSender(confirmations = 1): TransactionSender {
  return createTransactionSender({
    journal: store.signedTransactions,
    clients: new Map([[chain.chainId, chain.publicClient as never]]),
    confirmations: () => confirmations,
    log: createSilentLogger(),
    operators: [solver.address, relayer.address],
    timing: { pollIntervalMs: POLL_MS },
  });
}

/** Hashes waiting in the chain's pool. */
async function pool(): Promise<string[]> {
  const content = await chain.testClient.getTxpoolContent();
  return [content.pending, content.queued].flatMap((byAddress) =>
    Object.values(byAddress).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash.toLowerCase())),
  );
}

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(POLL_MS);
  }
}

const transfer = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });

async function send(account: LocalAccount, data: Hex, purpose: string) {
  return sender.sendOnce({ chainId: chain.chainId, account, to: chain.tokens.usdc, data, purpose });
}

/** The solver funds the relayer, the relayer passes it on; both journaled mined, then lost. */
async function fundAndSpendThenLose(round: string): Promise<SignedTransaction[]> {
  await chain.mint(chain.tokens.usdc, solver.address, AMOUNT);
  const snapshot = await chain.testClient.snapshot();
  const fund = await send(solver, transfer(relayer.address, AMOUNT), `fund-${round}`);
  const spend = await send(relayer, transfer(chain.accounts.stranger.address, AMOUNT), `spend-${round}`);
  const rows = [
    (await store.signedTransactions.findByHash(fund.hash))!,
    (await store.signedTransactions.findByHash(spend.hash))!,
  ];
  expect(rows.map((r) => [r.status, r.minedBlock])).toEqual([
    ['mined', Number(fund.receipt.blockNumber)],
    ['mined', Number(spend.receipt.blockNumber)],
  ]);
  await chain.testClient.revert({ id: snapshot });
  for (const r of rows) {
    await expect(chain.publicClient.getTransactionReceipt({ hash: r.hash as Hex })).rejects.toThrow();
  }
  return rows;
}

/** Both mined again under their stored hashes, the spend after the fund, and recorded so. */
async function expectRestored(rows: SignedTransaction[], strangerBefore: bigint): Promise<void> {
  const receipts = await Promise.all(
    rows.map((r) => chain.publicClient.getTransactionReceipt({ hash: r.hash as Hex })),
  );
  expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
  expect(receipts[0]!.blockNumber).toBeLessThan(receipts[1]!.blockNumber);
  const after = await Promise.all(rows.map((r) => store.signedTransactions.findByHash(r.hash)));
  expect(after.map((r) => [r?.status, r?.minedBlock])).toEqual(
    receipts.map((r) => ['mined', Number(r.blockNumber)]),
  );
  expect(await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address)).toBe(
    strangerBefore + AMOUNT,
  );
}

describe('lost mined transactions of two keys', () => {
  it('are sent again in their first order when a later send of one key waits behind its gap', async () => {
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const rows = await fundAndSpendThenLose('gap');
    // The relayer's next nonce in the journal is above the lost one: it waits until the restore fills the gap.
    const next = await send(
      relayer,
      encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [chain.accounts.stranger.address, 1n],
      }),
      'after-gap',
    );
    expect(next.receipt.status).toBe('success');
    // The restore the gap started records its last row a poll after the chain mined it (it is not awaited by
    // the send that started it): join it, or run a second one that finds nothing, before reading the rows.
    await sender.restoreLost(chain.chainId);
    await expectRestored(rows, strangerBefore);
  }, 60_000);

  it('are sent again in their first order by restoreLost with nothing sent after them', async () => {
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const rows = await fundAndSpendThenLose('last');
    expect(await sender.restoreLost(chain.chainId)).toBe(2);
    await expectRestored(rows, strangerBefore);
    // Nothing lost any more: a second run finds nothing.
    expect(await sender.restoreLost(chain.chainId)).toBe(0);
  }, 60_000);
});

describe('the restore lifecycle', () => {
  it('stops at once when the sender stops mid-restore, sends nothing after, and the next process finishes it', async () => {
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const [fund, spend] = await fundAndSpendThenLose('stop');
    const stopping = newSender();
    await chain.testClient.setAutomine(false);
    try {
      const run = stopping.restoreLost(chain.chainId);
      // The fund is sent again and waits in the pool for a block that does not come (60 s per transaction).
      await until(async () => (await pool()).includes(fund!.hash.toLowerCase()));
      const started = Date.now();
      await stopping.stopRestoring();
      expect(Date.now() - started).toBeLessThan(STOP_BOUND_MS);
      expect(await run).toBe(0);
      // No run starts after the stop.
      expect(await stopping.restoreLost(chain.chainId)).toBe(0);
      // The fund (sent before the stop) is mined; nothing else was sent, nor is afterwards.
      expect(await pool()).toEqual([fund!.hash.toLowerCase()]);
      await chain.testClient.mine({ blocks: 1 });
      await sleep(10 * POLL_MS);
      expect(await pool()).toEqual([]);
      await expect(chain.publicClient.getTransactionReceipt({ hash: spend!.hash as Hex })).rejects.toThrow();
      // Left as a stop (or a crash) leaves it: `broadcast`, its first block kept for the order.
      const left = await store.signedTransactions.findByHash(fund!.hash);
      expect([left?.status, left?.minedBlock]).toEqual(['broadcast', fund!.minedBlock]);
    } finally {
      await chain.testClient.setAutomine(true);
    }
    // The next process: the fund is found mined and recorded, the spend sent after it.
    expect(await newSender().restoreLost(chain.chainId)).toBe(1);
    await expectRestored([fund!, spend!], strangerBefore);
  }, 60_000);

  it('records a row sent again mined at the chain depth only, and sends the next one after that', async () => {
    const depth = 3;
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const [fund, spend] = await fundAndSpendThenLose('depth');
    const receiptOf = (hash: string) =>
      chain.publicClient.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
    const statusOf = async (hash: string) => (await store.signedTransactions.findByHash(hash))?.status;
    const run = newSender(depth).restoreLost(chain.chainId);
    // Automine includes the fund at once; no other block comes until this test mines one.
    await until(async () => (await receiptOf(fund!.hash)) !== undefined);
    await sleep(5 * POLL_MS);
    expect(await statusOf(fund!.hash)).toBe('broadcast');
    expect(await pool()).toEqual([]);
    expect(await receiptOf(spend!.hash)).toBeUndefined();
    await chain.testClient.mine({ blocks: depth - 1 });
    await until(async () => (await receiptOf(spend!.hash)) !== undefined);
    expect(await statusOf(fund!.hash)).toBe('mined');
    await sleep(5 * POLL_MS);
    expect(await statusOf(spend!.hash)).toBe('broadcast');
    await chain.testClient.mine({ blocks: depth - 1 });
    expect(await run).toBe(2);
    await expectRestored([fund!, spend!], strangerBefore);
    const [fundBlock, spendBlock] = await Promise.all(
      [fund!, spend!].map(async (r) => (await receiptOf(r.hash))!.blockNumber),
    );
    expect(spendBlock! - fundBlock!).toBeGreaterThanOrEqual(BigInt(depth));
  }, 60_000);

  it('resumes a restore a crash interrupted in first-mined order; the start-up re-broadcast sends none of it', async () => {
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const rows = await fundAndSpendThenLose('crash');
    // What markResent leaves when the process dies around the send: `broadcast`, the first block kept. Both
    // rows so: the order must come from their first blocks, not from their status.
    for (const row of rows) await store.signedTransactions.markResent(row.hash);
    const next = newSender();
    // The start-up re-broadcast: the spend sent first would revert (the relayer holds nothing yet).
    expect(await next.rebroadcastUnconfirmed()).toBe(0);
    expect(await pool()).toEqual([]);
    for (const row of rows) {
      await expect(chain.publicClient.getTransactionReceipt({ hash: row.hash as Hex })).rejects.toThrow();
      expect((await store.signedTransactions.findByHash(row.hash))?.status).toBe('broadcast');
    }
    // The chain watch's first look at start: the restore sends both, the fund first.
    expect(await next.restoreLost(chain.chainId)).toBe(2);
    await expectRestored(rows, strangerBefore);
  }, 60_000);
});
