/**
 * Restoring lost transactions (src/chains/restore-lost-transactions.ts) against a real anvil: two keys'
 * transactions, the second spending what the first sent (the solver funds the relayer, the relayer passes it
 * on), are journaled mined and then lost (`evm_revert` to before them: what a node restarted from an older
 * state looks like). Sent again in their first order, same hashes, both succeed; in the other order the
 * relayer's would revert. Once through the sender's trigger (a later relayer send waiting behind its nonce
 * gap restores the solver's transaction too), once with nothing sent after them (restoreLost, what the
 * engine's chain watch calls when the chain comes back).
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
  sender = createTransactionSender({
    store,
    clients: new Map([[chain.chainId, chain.publicClient as never]]),
    confirmations: () => 1,
    log: createSilentLogger(),
    operators: [solver.address, relayer.address],
    timing: { pollIntervalMs: 50 },
  });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
  await chain?.stop();
});

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
