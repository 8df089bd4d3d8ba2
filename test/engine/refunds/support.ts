/**
 * Refund tests on top of the engine fixture: engines with refund waits shortened (a warped chain clock is
 * noticed at once), a warp that moves every devnet chain's clock together (and the plan builder's "now"
 * with them), balance and receipt helpers, and the intent services' AbortIntent and WaitIntentReceipt.
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, zeroAddress } from 'viem';
import { expect } from 'vitest';
import type { ApiDeps, CallContext } from '../../../src/api/context.ts';
import { createWaitIntentReceipt } from '../../../src/api/methods/intents/wait-intent-receipt.ts';
import { createReadHandlers } from '../../../src/api/methods/reads/index.ts';
import { PreSerialised } from '../../../src/api/methods/reads/pre-serialised.ts';
import type { MethodResponse } from '../../../src/api/schemas/methods.ts';
import { signingAccount } from '../../../src/chains/signing-account.ts';
import { createIntentEngine, type IntentEngineOptions } from '../../../src/engine/create-intent-engine.ts';
import type { IntentEngine } from '../../../src/engine/types.ts';
import type { ExecutionPlan } from '../../../src/intents/plan/types.ts';
import { createAbortIntent } from '../../../src/intents/services/abort-intent.ts';
import type { IntentServicesDeps } from '../../../src/intents/services/types.ts';
import { createReceiptWaiter } from '../../../src/intents/services/wait-intent-receipt.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import type { IntentTransactionRecord, Store } from '../../../src/store/types.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { type EngineFixture, startEngineFixture } from '../support/engine-fixture.ts';

/** Refund steps re-read the chain clock this often in tests (ms): the tests warp it. */
const TEST_REFUND_TIMING = { recheckMaxMs: 100, lateDepositRecheckMs: 100 } as const;

/** What a refund engine runs on instead of the defaults: a test's wrapper of the store, extra options. */
export interface RefundEngineOverrides {
  store?: Store;
  options?: IntentEngineOptions;
}

export interface RefundFixture extends EngineFixture {
  /**
   * Runs `body` with an engine on the fixture's store, or on `store` (a test's wrapper of it), with extra
   * options, and stops it however `body` ends: an engine left running after a failed test would work on the
   * next test's intents.
   */
  withRefundEngine<T>(
    body: (engine: IntentEngine) => Promise<T>,
    overrides?: RefundEngineOverrides,
  ): Promise<T>;
  /** The API's GetIntentReceipt answer (the store-backed read handler, project-scoped). */
  getReceipt(intentId: string): Promise<MethodResponse<'GetIntentReceipt'>['intentReceipt']>;
  /** Moves every chain's clock forward by `seconds` and mines a block on each. */
  warp(seconds: bigint): Promise<void>;
  /** Warps every chain just past `at` (chain seconds, judged on the given chain). */
  warpPast(chain: TestDevnetChain, at: bigint): Promise<void>;
  balance(chain: TestDevnetChain, token: Address, holder: Address): Promise<bigint>;
  transfer(chain: TestDevnetChain, token: Address, to: Address, amount: bigint): Promise<Hex>;
  rowsOf(intentId: string): Promise<Record<string, IntentTransactionRecord>>;
  expectMinedRow(row: IntentTransactionRecord | undefined): Promise<void>;
  abortIntent(input: { intentId: string; chainId: number; abortTransactionHash: string }): Promise<string>;
  waitReceipt(intentId: string): ReturnType<ReturnType<typeof createWaitIntentReceipt>>;
}

export async function startRefundFixture(): Promise<RefundFixture> {
  const f = await startEngineFixture('sqlite');
  let skew = 0n;
  f.planDeps.nowSeconds = () => BigInt(Math.floor(Date.now() / 1000)) + skew;
  const engines: IntentEngine[] = [];
  const accounts = f.net.devnet.accounts;
  const clients = new Map(f.net.chains.map((c) => [c.entry.chainId, c.publicClient]));
  const ctx = (method: CallContext['method']): CallContext => ({
    projectId: f.projectId,
    method,
    dialect: 'Service',
  });
  const closing = new AbortController();
  const chainById = new Map(f.net.chainConfigs.map((c) => [c.chainId, c]));
  const wait = createWaitIntentReceipt(
    {
      receiptWaiter: (answer) =>
        createReceiptWaiter({ store: f.store, holdMs: 0, closing: closing.signal, answer }),
    },
    chainById,
  );
  const abort = createAbortIntent({ store: f.store, clients } as unknown as IntentServicesDeps);
  const apiDeps: ApiDeps = {
    chains: f.net.chainConfigs,
    chainById,
    log: createSilentLogger(),
    version: 'test',
    startedAt: new Date(),
    now: () => new Date(),
  };
  const reads = createReadHandlers(apiDeps, f.store, { receiptCacheIntents: 0 });

  const startEngine = async (overrides: RefundEngineOverrides = {}) => {
    const engine = createIntentEngine({
      store: overrides.store ?? f.store,
      chains: f.net.chainConfigs,
      clients,
      keys: {
        relayer: signingAccount(accounts.relayer!.privateKey),
        solver: signingAccount(accounts.solver!.privateKey),
        attester: signingAccount(accounts.attester!.privateKey),
      },
      log: createSilentLogger(),
      options: {
        stepPollIntervalMs: 20,
        depositScanIntervalMs: 100,
        refundTiming: TEST_REFUND_TIMING,
        ...overrides.options,
      },
    });
    await engine.start();
    // Stopped again by the fixture's stop, for a body still running when the suite ends (a timeout).
    engines.push(engine);
    return engine;
  };

  const fixture: RefundFixture = {
    ...f,
    async withRefundEngine(body, overrides) {
      const engine = await startEngine(overrides);
      try {
        return await body(engine);
      } finally {
        await engine.stop();
      }
    },
    async warp(seconds) {
      for (const chain of f.net.chains) {
        await chain.testClient.increaseTime({ seconds: Number(seconds) });
        await chain.testClient.mine({ blocks: 1 });
      }
      skew += seconds;
    },
    async warpPast(chain, at) {
      const now = (await chain.publicClient.getBlock()).timestamp;
      if (now <= at) await fixture.warp(at - now + 2n);
    },
    balance: (chain, token, holder) =>
      token === zeroAddress
        ? chain.publicClient.getBalance({ address: holder })
        : chain.publicClient.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [holder],
          }),
    async transfer(chain, token, to, amount) {
      const wallet = chain.walletFor('user');
      const hash =
        token === zeroAddress
          ? await wallet.sendTransaction({ to, value: amount })
          : await wallet.sendTransaction({
              to: token,
              data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
            });
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      return hash;
    },
    async rowsOf(intentId) {
      const rows = await f.store.transactions.list(intentId);
      return Object.fromEntries(rows.map((r) => [r.kind, r]));
    },
    async expectMinedRow(row) {
      expect(row?.status).toBe('SUCCEEDED');
      expect(row?.txnHash).toMatch(/^0x[0-9a-f]{64}$/);
      const chain = f.chain(row!.chainId);
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: row!.txnHash as Hex });
      expect(receipt.status).toBe('success');
      const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      expect(row?.minedAt?.getTime()).toBe(Number(block.timestamp) * 1000);
    },
    async abortIntent(input) {
      const answer = await abort(input, f.projectId);
      return answer.status;
    },
    waitReceipt: (intentId) => wait({ intentId }, ctx('WaitIntentReceipt')),
    async getReceipt(intentId) {
      // The handler answers pre-serialised JSON bytes (cached-reads.ts): decode them as a client would.
      const answer: unknown = await reads.GetIntentReceipt!({ intentId }, ctx('GetIntentReceipt'));
      const json =
        answer instanceof PreSerialised
          ? answer
              .compose((value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
              .toString()
          : JSON.stringify(answer);
      return (JSON.parse(json) as MethodResponse<'GetIntentReceipt'>).intentReceipt;
    },
    async stop() {
      closing.abort();
      await Promise.all(engines.map((e) => e.stop()));
      await f.stop();
    },
  };
  return fixture;
}

/** The origin deposit token of a plan and the chain it lives on. */
export function originOf(f: RefundFixture, plan: ExecutionPlan) {
  return { chain: f.chain(plan.origin.intent.chainId), token: plan.origin.intent.depositToken };
}
