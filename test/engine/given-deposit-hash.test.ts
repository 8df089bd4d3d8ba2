/**
 * A native deposit (no log to find it by) counted by the deposit step while ExecuteIntent is naming its
 * transaction: whatever the order of the two, the SUCCEEDED deposit row ends with ExecuteIntent's hash,
 * its sender and its block time. The orders are forced with gates on the store (no timing): ExecuteIntent
 * is held between reading the intent and storing the hash, or the deposit step between reading the hash and
 * writing the row, while the other side runs to the end.
 */
import { type Address, type Hex, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingAccount } from '../../src/chains/signing-account.ts';
import { chainLookup, type EngineContext } from '../../src/engine/context.ts';
import { createIntentEngine } from '../../src/engine/create-intent-engine.ts';
import { loadPlan } from '../../src/engine/load-plan.ts';
import { writeRow } from '../../src/engine/receipts.ts';
import { depositStep } from '../../src/engine/steps/deposit.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import type { ExecutionPlan } from '../../src/intents/plan/types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { Store } from '../../src/store/types.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type EngineFixture, freshAddress, startEngineFixture } from './support/engine-fixture.ts';

let f: EngineFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  f = await startEngineFixture('sqlite');
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

/** A one-shot gate: `reached` resolves when the held call arrives, `release` lets it go on. */
function gate() {
  let arrive!: () => void;
  let go!: () => void;
  const reached = new Promise<void>((r) => {
    arrive = r;
  });
  const released = new Promise<void>((r) => {
    go = r;
  });
  let used = false;
  return {
    reached,
    release: () => go(),
    /** Holds the first call only; later ones pass. */
    async hold(): Promise<void> {
      if (used) return;
      used = true;
      arrive();
      await released;
    },
  };
}

/** An engine that is never started: only requestExecution (ExecuteIntent, or the watcher without a hash). */
function idleEngine(store: Store): IntentEngine {
  const accounts = f.net.devnet.accounts;
  return createIntentEngine({
    store,
    chains: f.net.chainConfigs,
    clients: new Map(f.net.chains.map((c) => [c.entry.chainId, c.publicClient])),
    keys: {
      relayer: signingAccount(accounts.relayer!.privateKey),
      solver: signingAccount(accounts.solver!.privateKey),
      attester: signingAccount(accounts.attester!.privateKey),
    },
    log: createSilentLogger(),
  });
}

/** What the deposit step uses of the engine's context: the store and the chains. */
function stepContext(store: Store): EngineContext {
  const chain = chainLookup(
    f.net.chainConfigs,
    new Map(f.net.chains.map((c) => [c.entry.chainId, c.publicClient])),
  );
  return { store, chain, log: createSilentLogger() } as unknown as EngineContext;
}

/** Runs the deposit step once on the intent as the runner would load it now. */
async function runDepositStep(store: Store, intentId: string): Promise<void> {
  const intent = (await f.store.intents.getForEngine(intentId))!;
  const result = await depositStep.run(stepContext(store), { intent, plan: loadPlan(intent) });
  expect(result).toMatchObject({ kind: 'done', next: ['origin'] });
  // A row the step hands back commits with its completion in the runner (store.steps.complete): written
  // here as the runner's store would.
  if (result.kind === 'done' && result.row)
    await writeRow(store, intentId, result.row.kind, result.row.write);
}

async function committedNativeDeposit(): Promise<{ intentId: string; plan: ExecutionPlan; hash: Hex }> {
  const { intentId, plan } = await f.commit({
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: zeroAddress,
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: beta.entry.tokens.USDC! as Address,
    destinationToAddress: freshAddress(),
    originTokenAmount: parseEther('0.02'),
    serviceFeeBps: 25n,
  });
  expect(plan.origin.intent.depositToken).toBe(zeroAddress);
  return { intentId, plan, hash: await f.deposit(plan) };
}

async function expectDepositRowNames(intentId: string, hash: Hex): Promise<void> {
  const row = (await f.store.transactions.list(intentId)).find((r) => r.kind === 'deposit');
  expect(row?.status).toBe('SUCCEEDED');
  expect(row?.txnHash).toBe(hash.toLowerCase());
  expect(row?.fromAddress).toBe(user.toLowerCase());
  const receipt = await alpha.publicClient.getTransactionReceipt({ hash });
  const block = await alpha.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  expect(row?.minedAt?.getTime()).toBe(Number(block.timestamp) * 1000);
}

describe('the deposit hash given to ExecuteIntent is kept whatever the order', () => {
  it('ExecuteIntent read the intent as COMMITTED, the watcher started it and the deposit step counted the deposit, then ExecuteIntent stored its hash', async () => {
    const { intentId, hash } = await committedNativeDeposit();
    const held = gate();
    // ExecuteIntent's engine: held at the status write that stores the hash (after it read the intent).
    const executeStore: Store = {
      ...f.store,
      intents: {
        ...f.store.intents,
        async updateStatus(input) {
          if (input.depositTransactionHash) await held.hold();
          return f.store.intents.updateStatus(input);
        },
      },
    };
    const executing = idleEngine(executeStore).requestExecution({
      intentId,
      depositTransactionHash: hash,
    });
    await held.reached;
    // Meanwhile the deposit watcher starts the intent (no hash) and its deposit step counts the deposit.
    await idleEngine(f.store).requestExecution({ intentId });
    await runDepositStep(f.store, intentId);
    const counted = (await f.store.transactions.list(intentId)).find((r) => r.kind === 'deposit');
    expect(counted?.status).toBe('SUCCEEDED');
    expect(counted?.txnHash ?? null).toBeNull();

    held.release();
    await executing;
    await expectDepositRowNames(intentId, hash);
  });

  it('the deposit step read no hash, ExecuteIntent then ran to the end, then the step wrote the row', async () => {
    const { intentId, hash } = await committedNativeDeposit();
    // The deposit watcher started the intent: no hash on it.
    await idleEngine(f.store).requestExecution({ intentId });
    const held = gate();
    // The deposit step's store: its re-read of the intent's hash returns what it read, then waits.
    const stepStore: Store = {
      ...f.store,
      intents: {
        ...f.store.intents,
        async getForEngine(id) {
          const read = await f.store.intents.getForEngine(id);
          await held.hold();
          return read;
        },
      },
    };
    const counting = runDepositStep(stepStore, intentId);
    await held.reached;
    await idleEngine(f.store).requestExecution({ intentId, depositTransactionHash: hash });
    const meanwhile = (await f.store.transactions.list(intentId)).find((r) => r.kind === 'deposit');
    expect(meanwhile?.status).toBe('PENDING');

    held.release();
    await counting;
    await expectDepositRowNames(intentId, hash);
  });
});
