/**
 * Sends that are not one intent's step, with two workers on one PostgreSQL database (each worker a
 * transaction sender on its own pool, with its own task leases), against a real anvil:
 *
 * - the restore of lost transactions: both workers notice the same two lost transactions at once; one
 *   sends them again (it holds the chain's `restore-lost:<chainId>` lease), the other does nothing and says
 *   so (undefined), and each transaction goes out once, in its first order;
 * - the solver's approve of a token (`sender.exclusive`): two fills on two workers that both need the
 *   allowance: one approves, the other waits for the lease and finds the allowance there.
 *
 * Without the leases, both workers restore (four eth_sendRawTransaction for two transactions) and both
 * approve (two approve transactions).
 */
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type LocalAccount,
  maxUint256,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTransactionSender,
  type TransactionSender,
} from '../../src/chains/create-transaction-sender.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { createTaskLeaseHolder } from '../../src/store/task-lease-holder.ts';
import type { Store } from '../../src/store/types.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';
import { createTestDatabase, type TestDatabase } from '../harness/database.ts';

/** Moved from the solver to the relayer and on to the stranger (USDC base units). */
const AMOUNT = 50_000_000n;
/** The senders' receipt poll (ms). */
const POLL_MS = 50;

interface Worker {
  name: string;
  store: Store;
  sender: TransactionSender;
  /** JSON-RPC methods this worker sent to the chain, in order. */
  calls: string[];
}

let chain: TestChain;
let database: TestDatabase;
const workers: Worker[] = [];
let solver: LocalAccount;
let relayer: LocalAccount;

beforeAll(async () => {
  [chain, database] = await Promise.all([
    startTestChain({ chainId: 7_770_471 }),
    createTestDatabase('postgres'),
  ]);
  solver = chain.accounts.solver as LocalAccount;
  relayer = chain.accounts.relayer as LocalAccount;
  for (const name of ['worker-a', 'worker-b']) workers.push(await startWorker(name));
}, 120_000);
afterAll(async () => {
  for (const w of workers) await w.store.close();
  await database?.drop();
  await chain?.stop();
});

/** A worker as a process has it: its own pool on the database, its own client counting what it sends. */
async function startWorker(name: string): Promise<Worker> {
  const store = await createStore({ ...database.options, log: createSilentLogger() });
  const calls: string[] = [];
  const client = createPublicClient({
    chain: chain.chain,
    pollingInterval: POLL_MS,
    transport: http(chain.rpcUrl, {
      onFetchRequest: async (request) => {
        const body = JSON.parse(await request.clone().text()) as { method: string } | { method: string }[];
        for (const item of Array.isArray(body) ? body : [body]) calls.push(item.method);
      },
    }),
  });
  const log = createSilentLogger();
  const sender = createTransactionSender({
    store,
    clients: new Map([[chain.chainId, client as never]]),
    confirmations: () => 1,
    log,
    operators: [solver.address, relayer.address],
    leases: createTaskLeaseHolder({ taskLeases: store.taskLeases, owner: name, log }),
    timing: { pollIntervalMs: POLL_MS },
  });
  return { name, store, sender, calls };
}

const transfer = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });

const sentRaw = (w: Worker) => w.calls.filter((m) => m === 'eth_sendRawTransaction').length;

describe('two workers on one database', () => {
  it('restore lost transactions once: one worker sends them again, in order; the other leaves it', async () => {
    const [a, b] = workers as [Worker, Worker];
    await chain.mint(chain.tokens.usdc, solver.address, AMOUNT);
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const snapshot = await chain.testClient.snapshot();
    const send = (account: LocalAccount, data: Hex, purpose: string) =>
      a.sender.sendOnce({ chainId: chain.chainId, account, to: chain.tokens.usdc, data, purpose });
    const fund = await send(solver, transfer(relayer.address, AMOUNT), 'fund');
    const spend = await send(relayer, transfer(chain.accounts.stranger.address, AMOUNT), 'spend');
    // The node comes back behind: both mined transactions are gone, the journal still has them mined.
    await chain.testClient.revert({ id: snapshot });
    for (const w of workers) w.calls.length = 0;

    const outcomes = await Promise.all([
      a.sender.restoreLost(chain.chainId),
      b.sender.restoreLost(chain.chainId),
    ]);
    expect([...outcomes].sort()).toEqual([2, undefined]);
    // Each lost transaction went out once, from the worker that held the chain's restore.
    expect(sentRaw(a) + sentRaw(b)).toBe(2);
    const restorer = outcomes[0] === 2 ? a : b;
    expect(sentRaw(restorer)).toBe(2);

    const receipts = await Promise.all(
      [fund.hash, spend.hash].map((hash) => chain.publicClient.getTransactionReceipt({ hash })),
    );
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    expect(receipts[0]!.blockNumber).toBeLessThan(receipts[1]!.blockNumber);
    expect(await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address)).toBe(
      strangerBefore + AMOUNT,
    );
    // Nothing held: the next loss is restored by whichever worker notices it.
    expect(await a.store.taskLeases.get(`restore-lost:${chain.chainId}`)).toBeUndefined();
  });

  it('approve a token for the solver once when fills on both workers need the allowance', async () => {
    const token = chain.tokens.dai;
    const spender = chain.contracts.destinationSettler;
    const purpose = `solver-approve:${token.toLowerCase()}`;
    const allowance = () =>
      chain.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [solver.address, spender],
      });
    expect(await allowance()).toBe(0n);
    // What the fill step does (src/engine/steps/fill.ts): read the allowance under the lock, approve if short.
    const fillNeedsAllowance = (w: Worker) =>
      w.sender.exclusive(`approve:${chain.chainId}:${token.toLowerCase()}`, async () => {
        if ((await allowance()) > 0n) return 'found the allowance';
        await w.sender.sendOnce({
          chainId: chain.chainId,
          account: solver,
          to: token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }),
          purpose,
        });
        return 'approved';
      });
    const outcomes = await Promise.all(workers.map(fillNeedsAllowance));
    expect([...outcomes].sort()).toEqual(['approved', 'found the allowance']);
    expect(await allowance()).toBe(maxUint256);
    const journal = await workers[0]!.store.signedTransactions.listUnconfirmed({
      chainId: chain.chainId,
      fromAddress: solver.address,
    });
    expect(journal.filter((r) => r.purpose === purpose)).toEqual([]);
    const head = await chain.publicClient.getBlockNumber();
    let approves = 0;
    for (let n = 0n; n <= head; n++) {
      const block = await chain.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
      approves += block.transactions.filter(
        (tx) =>
          tx.from.toLowerCase() === solver.address.toLowerCase() &&
          tx.to?.toLowerCase() === token.toLowerCase(),
      ).length;
    }
    expect(approves).toBe(1);
  });
});
