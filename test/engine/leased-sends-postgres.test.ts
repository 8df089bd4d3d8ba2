/**
 * Sends that are not one intent's step, with two workers on one PostgreSQL database (each worker a
 * transaction sender on its own pool, with its own task leases), against a real anvil:
 *
 * - the restore of lost transactions: both workers notice the same two lost transactions at once; one
 *   sends them again (it holds the chain's `restore-lost:<chainId>` lease), the other does nothing and says
 *   so (undefined), and each transaction goes out once, in its first order;
 * - a restore whose worker dies mid-run (cut off from the database after sending the first transaction, the
 *   block not mined yet): the other worker's next trigger takes the chain over once the lease has run out and
 *   finishes it, the dead worker's transaction resumed as stored and the second sent by the new holder only;
 * - the solver's approve of a token (`sender.exclusive`): two fills on two workers that both need the
 *   allowance: one approves, the other waits for the lease and finds the allowance there.
 *
 * Without the leases, both workers restore (each run answers 2) and both approve (two approve transactions).
 */
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
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
import { type CutOffStore, cutOffStore } from './support/cut-off-store.ts';

/** Moved from the solver to the relayer and on to the stranger (USDC base units). */
const AMOUNT = 50_000_000n;
/** The senders' receipt poll (ms). */
const POLL_MS = 50;
/** The workers' task leases (ms): a dead holder's restore is taken over after this. */
const LEASE_MS = 1_000;

interface Worker {
  name: string;
  store: Store;
  /** Cuts the worker off from the database (it renews and writes nothing: dead to the others). */
  link: CutOffStore;
  sender: TransactionSender;
  /** JSON-RPC methods this worker sent to the chain, in order. */
  calls: string[];
  /** Hashes of the raw transactions it sent. */
  sent: string[];
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
  for (const w of workers) {
    w.link.reconnect();
    await w.store.close();
  }
  await database?.drop();
  await chain?.stop();
});

/** A worker as a process has it: its own pool on the database, its own client counting what it sends. */
async function startWorker(name: string): Promise<Worker> {
  const link = cutOffStore(await createStore({ ...database.options, log: createSilentLogger() }));
  const { store } = link;
  const calls: string[] = [];
  const sent: string[] = [];
  const client = createPublicClient({
    chain: chain.chain,
    pollingInterval: POLL_MS,
    transport: http(chain.rpcUrl, {
      onFetchRequest: async (request) => {
        type Call = { method: string; params?: unknown[] };
        const body = JSON.parse(await request.clone().text()) as Call | Call[];
        for (const item of Array.isArray(body) ? body : [body]) {
          calls.push(item.method);
          if (item.method === 'eth_sendRawTransaction') sent.push(keccak256(item.params![0] as Hex));
        }
      },
    }),
  });
  const log = createSilentLogger();
  const sender = createTransactionSender({
    journal: store.signedTransactions,
    clients: new Map([[chain.chainId, client as never]]),
    confirmations: () => 1,
    log,
    operators: [solver.address, relayer.address],
    leases: createTaskLeaseHolder({ taskLeases: store.taskLeases, owner: name, log, leaseMs: LEASE_MS }),
    timing: { pollIntervalMs: POLL_MS },
  });
  return { name, store, link, sender, calls, sent };
}

async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > 20_000) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The solver funds the relayer, the relayer passes it on (sent by worker-a); then the node loses both. */
async function fundAndSpendThenLose() {
  const a = workers[0]!;
  await chain.mint(chain.tokens.usdc, solver.address, AMOUNT);
  const snapshot = await chain.testClient.snapshot();
  const send = (account: LocalAccount, data: Hex, purpose: string) =>
    a.sender.sendOnce({ chainId: chain.chainId, account, to: chain.tokens.usdc, data, purpose });
  const suffix = Math.random().toString(36).slice(2);
  const fund = await send(solver, transfer(relayer.address, AMOUNT), `fund-${suffix}`);
  const spend = await send(relayer, transfer(chain.accounts.stranger.address, AMOUNT), `spend-${suffix}`);
  await chain.testClient.revert({ id: snapshot });
  for (const w of workers) {
    w.calls.length = 0;
    w.sent.length = 0;
  }
  return { fund, spend };
}

/** Both mined again under their stored hashes, in their order, and the stranger paid once. */
async function expectRestored(hashes: Hex[], strangerBefore: bigint): Promise<void> {
  const receipts = await Promise.all(
    hashes.map((hash) => chain.publicClient.getTransactionReceipt({ hash })),
  );
  expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
  expect(receipts[0]!.blockNumber).toBeLessThan(receipts[1]!.blockNumber);
  expect(await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address)).toBe(
    strangerBefore + AMOUNT,
  );
}

const transfer = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });

const sentRaw = (w: Worker) => w.calls.filter((m) => m === 'eth_sendRawTransaction').length;

describe('two workers on one database', () => {
  it('restore lost transactions once: one worker sends them again, in order; the other leaves it', async () => {
    const [a, b] = workers as [Worker, Worker];
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const { fund, spend } = await fundAndSpendThenLose();

    const outcomes = await Promise.all([
      a.sender.restoreLost(chain.chainId),
      b.sender.restoreLost(chain.chainId),
    ]);
    // One run restores both; the other restores nothing: turned away while the lease is held (undefined),
    // or run after the first released it and found nothing lost (0).
    expect(outcomes.filter((n) => n === 2)).toHaveLength(1);
    expect(outcomes.filter((n) => n !== 2).map((n) => n ?? 0)).toEqual([0]);
    // Each lost transaction went out once, from the worker that held the chain's restore.
    expect(sentRaw(a) + sentRaw(b)).toBe(2);
    const restorer = outcomes[0] === 2 ? a : b;
    expect(sentRaw(restorer)).toBe(2);
    await expectRestored([fund.hash, spend.hash], strangerBefore);
    // Nothing held: the next loss is restored by whichever worker notices it.
    expect(await a.store.taskLeases.get(`restore-lost:${chain.chainId}`)).toBeUndefined();
  });

  it('finish a restore whose worker died mid-run: the other takes the chain over once the lease ran out', async () => {
    const [a, b] = workers as [Worker, Worker];
    const strangerBefore = await chain.balanceOf(chain.tokens.usdc, chain.accounts.stranger.address);
    const { fund, spend } = await fundAndSpendThenLose();
    await chain.testClient.setAutomine(false);
    try {
      // worker-a sends the fund again and waits for its block; then it dies.
      const aRun = a.sender.restoreLost(chain.chainId).catch((error: unknown) => error);
      await until('worker-a to send the fund again', () => a.sent.includes(fund.hash));
      a.link.cut();
      // Before the lease runs out, the chain is still worker-a's.
      expect(await b.sender.restoreLost(chain.chainId)).toBeUndefined();
      await new Promise((r) => setTimeout(r, LEASE_MS + 300));
      const bRun = b.sender.restoreLost(chain.chainId);
      await until('worker-b to resume the fund', () => b.sent.includes(fund.hash));
      await chain.testClient.mine({ blocks: 1 });
      await chain.testClient.setAutomine(true);
      expect(await bRun).toBe(2);
      // worker-a could record nothing once cut off; the spend went out from worker-b only.
      await aRun;
      expect({ a: a.sent.includes(spend.hash), b: b.sent.includes(spend.hash) }).toEqual({
        a: false,
        b: true,
      });
      await expectRestored([fund.hash, spend.hash], strangerBefore);
      const rows = await Promise.all(
        [fund.hash, spend.hash].map((h) => b.store.signedTransactions.findByHash(h)),
      );
      expect(rows.map((r) => r?.status)).toEqual(['mined', 'mined']);
    } finally {
      a.link.reconnect();
      await chain.testClient.setAutomine(true);
    }
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
