/**
 * The execution engine: a durable state machine over the intent_steps journal.
 *
 *   deposit → origin → (same chain: done) | fill → destination
 *                                                 ↘ settle (operator work, after the fill)
 *
 * The relayer, solver and attester are separate keys and components. See docs/engine.md.
 */
import { randomUUID } from 'node:crypto';
import type { Address, PublicClient } from 'viem';
import { createTransactionSender, type TransactionSenderDeps } from '../chains/create-transaction-sender.ts';
import { crashPoint } from '../chains/debug-crash-point.ts';
import { createLatestBlockCache } from '../chains/latest-block-cache.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Store } from '../store/types.ts';
import { createAttester } from './attester.ts';
import { type ChainWatchDeps, createChainWatch } from './chain-watch.ts';
import { chainLookup, type EngineContext, type EngineKeys, type RefundTiming } from './context.ts';
import { createDepositWatcher } from './deposit-watcher.ts';
import { IntentNotFoundError } from './errors.ts';
import { type DepositIntentEntry, recordGaslessRequest, toDepositIntentEntry } from './gasless/index.ts';
import { recordGivenDepositHash } from './given-deposit-hash.ts';
import { loadPlan } from './load-plan.ts';
import { createOrderMemo } from './order-memo.ts';
import { writeRow } from './receipts.ts';
import { originRefundStep } from './refunds/origin-refund.ts';
import { createSettlementBatcher } from './settlement-batcher.ts';
import { createStepRunner } from './step-runner.ts';
import type { IntentEngine } from './types.ts';

export interface IntentEngineOptions {
  /** Names this process's leases; default a random id. */
  workerId?: string;
  stepPollIntervalMs?: number;
  stepBatchSize?: number;
  stepLeaseMs?: number;
  depositScanIntervalMs?: number;
  /** Committed intents the deposit watcher reads per round (tests). */
  depositScanBatch?: number;
  /** Sender timing overrides (tests). */
  senderTiming?: TransactionSenderDeps['timing'];
  /** Refund timing overrides (tests: warped chain clocks are noticed at once). */
  refundTiming?: Partial<RefundTiming>;
  /** How long a settlement waits for others to share its transaction (ms; tests). */
  settleBatchWindowMs?: number;
  /** Chain watch timing overrides (tests). */
  chainWatchTiming?: ChainWatchDeps['timing'];
}

export interface IntentEngineDeps {
  store: Store;
  chains: readonly ChainConfig[];
  clients: ReadonlyMap<number, PublicClient>;
  keys: EngineKeys;
  log: Logger;
  options?: IntentEngineOptions;
}

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID']);

export function createIntentEngine(deps: IntentEngineDeps): IntentEngine {
  const { store, keys } = deps;
  const options = deps.options ?? {};
  const log = deps.log.child({ component: 'engine' });
  const chain = chainLookup(deps.chains, deps.clients);
  if (keys.attester.address === keys.relayer.address) {
    log.warn('the attester key equals the relayer key; DESIGN §4 wants them separate');
  }
  const latestBlocks = createLatestBlockCache((chainId) => chain(chainId).client);
  const sender = createTransactionSender({
    store,
    latestBlocks,
    clients: deps.clients,
    confirmations: (chainId) => chain(chainId).config.confirmations,
    maxFeePerGas: (chainId) => chain(chainId).config.maxFeePerGasWei,
    log: log.child({ component: 'sender' }),
    operators: [keys.relayer.address, keys.solver.address, keys.attester.address],
    ...(options.senderTiming && { timing: options.senderTiming }),
  });
  let runnerKick = () => {};
  const ctx: EngineContext = {
    store,
    log,
    keys,
    sender,
    attester: createAttester({ account: keys.attester }),
    orders: createOrderMemo(),
    settlements: createSettlementBatcher({
      store,
      sender,
      relayer: keys.relayer,
      log,
      ...(options.settleBatchWindowMs !== undefined && { windowMs: options.settleBatchWindowMs }),
    }),
    latestBlocks,
    chain,
    ...(options.refundTiming && { refundTiming: options.refundTiming }),
    async enqueue(intentId, step, runAt) {
      await store.steps.enqueue({ intentId, step, ...(runAt && { runAt }) });
      runnerKick();
    },
  };
  const runner = createStepRunner(ctx, {
    workerId: options.workerId ?? `engine-${randomUUID()}`,
    ...(options.stepPollIntervalMs !== undefined && { pollIntervalMs: options.stepPollIntervalMs }),
    ...(options.stepBatchSize !== undefined && { batchSize: options.stepBatchSize }),
    ...(options.stepLeaseMs !== undefined && { leaseMs: options.stepLeaseMs }),
  });
  runnerKick = runner.kick;

  async function startExecution(
    intentId: string,
    depositTransactionHash?: `0x${string}`,
    gasless?: DepositIntentEntry,
  ): Promise<void> {
    const intent = await store.intents.getForEngine(intentId);
    if (!intent) throw new IntentNotFoundError(`intent ${intentId} not found`, { details: { intentId } });
    if (TERMINAL.has(intent.status)) return;
    await store.intents.updateStatus({
      intentId,
      to: 'EXECUTING',
      ...(depositTransactionHash && { depositTransactionHash }),
    });
    if (gasless) await recordGaslessRequest(store, intent, gasless);
    if (depositTransactionHash) {
      await writeRow(store, intentId, 'deposit', {
        chainId: intent.originChainId,
        status: 'PENDING',
        txnHash: depositTransactionHash,
      });
      // Started by the deposit watcher (before this call, or between the read above and the hash's
      // write): its deposit step may have counted a native deposit already, with no hash to show for it.
      // The status read above cannot tell, so the row is looked at every time (given-deposit-hash.ts).
      if (intent.planJson) {
        await recordGivenDepositHash(ctx, {
          intentId,
          chainId: intent.originChainId,
          originAddress: loadPlan(intent).origin.address,
          hash: depositTransactionHash,
        });
      }
    }
    await ctx.enqueue(intentId, 'deposit');
    // Returns the deposit after the origin deadline if the origin never runs, and late deposits (refunds/):
    // journaled to look first at that deadline (originRefundStep.firstLookAt), not now.
    const firstLook = intent.planJson
      ? originRefundStep.firstLookAt?.(ctx, { intent, plan: loadPlan(intent) })
      : undefined;
    await ctx.enqueue(intentId, 'origin-refund', firstLook);
    crashPoint('execute:accepted');
  }

  const watcher = createDepositWatcher(ctx, {
    ...(options.depositScanIntervalMs !== undefined && { intervalMs: options.depositScanIntervalMs }),
    ...(options.depositScanBatch !== undefined && { batch: options.depositScanBatch }),
    startExecution: (intentId) => startExecution(intentId),
  });

  // Lost transactions of a chain that came back behind are sent again without waiting for a later send.
  const chainWatch = createChainWatch({
    chainIds: deps.chains.map((c) => c.chainId),
    head: (chainId) => chain(chainId).client.getBlockNumber({ cacheTime: 0 }),
    sender,
    log: log.child({ component: 'chain-watch' }),
    ...(options.chainWatchTiming && { timing: options.chainWatchTiming }),
  });

  return {
    async requestExecution({ intentId, depositTransactionHash, depositSignature }) {
      // A gasless deposit (verified by ExecuteIntent) is pulled inside the origin execution: src/engine/gasless.
      const gasless = depositSignature ? toDepositIntentEntry(depositSignature) : undefined;
      await startExecution(intentId, depositTransactionHash, gasless);
    },
    async start() {
      const resent = await sender.rebroadcastUnconfirmed();
      if (resent > 0) log.info('re-broadcast stored unconfirmed transactions', { count: resent });
      ctx.settlements?.adoptUnconfirmed(
        deps.chains.map((c) => ({ chainId: c.chainId, settler: c.contracts.originSettler as Address })),
      );
      runner.start();
      watcher.start();
      chainWatch.start();
    },
    async stop() {
      // First: a running restore (the chain watch's or a waiting send's) may wait a minute per transaction;
      // this stops it at its next transaction boundary, bounded, and starts no other.
      await sender.stopRestoring();
      await chainWatch.stop();
      await watcher.stop();
      await runner.stop();
    },
  };
}
