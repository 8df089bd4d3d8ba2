/**
 * The execution engine: a durable state machine over the intent_steps journal.
 *
 *   deposit → origin → (same chain: done) | fill → destination
 *                                                 ↘ settle (operator work, after the fill)
 *
 * The relayer, solver and attester are separate keys and components. See docs/engine.md.
 */
import type { Address, PublicClient } from 'viem';
import { createTransactionSender, type TransactionSenderDeps } from '../chains/create-transaction-sender.ts';
import { createLatestBlockCache } from '../chains/latest-block-cache.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import { newWorkerId } from '../internal/worker-id.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { createTaskLeaseHolder } from '../store/task-lease-holder.ts';
import type { Store } from '../store/types.ts';
import { createAttester } from './attester.ts';
import { type ChainWatchDeps, createChainWatch } from './chain-watch.ts';
import { ENGINE_STOP_WAIT_MS } from './constants.ts';
import { chainLookup, type EngineContext, type EngineKeys, type RefundTiming } from './context.ts';
import { createDeadWorkerWatch } from './dead-worker-watch.ts';
import { createDepositWatcher } from './deposit-watcher.ts';
import { enqueueSteps, moveWithSteps } from './enqueue-steps.ts';
import { toDepositIntentEntry } from './gasless/index.ts';
import { createOrderMemo } from './order-memo.ts';
import { relayRecovery } from './relay-recovery.ts';
import { retryExecution } from './retry-execution.ts';
import { createSettlementBatcher } from './settlement-batcher.ts';
import { startExecution } from './start-execution.ts';
import { createStepRunner } from './step-runner.ts';
import { createDueTimes, noteDueTimes, noteMoveDueTimes } from './step-wakeups.ts';
import type { IntentEngine } from './types.ts';

export interface IntentEngineOptions {
  /**
   * Names this process's leases; default `<host>:<pid>:<random>:<process space>` (src/internal/worker-id.ts),
   * so a lease row says which process holds it and a worker on the same machine can tell when it is gone.
   */
  workerId?: string;
  stepPollIntervalMs?: number;
  /** How often an idle worker looks at the journal anyway (ms; tests); default STEP_IDLE_POLL_INTERVAL_MS. */
  stepIdlePollIntervalMs?: number;
  stepBatchSize?: number;
  stepLeaseMs?: number;
  /** How often the engine looks for leases of workers that died on this machine (ms; tests). */
  deadWorkerLookMs?: number;
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
  /** How long stop() waits for running steps before handing them back (ms); default ENGINE_STOP_WAIT_MS. */
  stopWaitMs?: number;
  /** How long a task lease outlives a worker that stopped renewing it (ms; tests); default TASK_LEASE_MS. */
  taskLeaseMs?: number;
}

export interface IntentEngineDeps {
  store: Store;
  chains: readonly ChainConfig[];
  clients: ReadonlyMap<number, PublicClient>;
  keys: EngineKeys;
  log: Logger;
  options?: IntentEngineOptions;
  /** Step runs and lease takeovers are counted here; default not counted. */
  metrics?: Metrics;
}

export function createIntentEngine(deps: IntentEngineDeps): IntentEngine {
  const { keys } = deps;
  // Every time the engine makes a step due later is noted, so the step loop looks then instead of polling.
  const due = createDueTimes();
  const store: Store = {
    ...deps.store,
    intents: noteMoveDueTimes(deps.store.intents, due),
    steps: noteDueTimes(deps.store.steps, due),
  };
  const options = deps.options ?? {};
  const log = deps.log.child({ component: 'engine' });
  const chain = chainLookup(deps.chains, deps.clients);
  if (keys.attester.address === keys.relayer.address) {
    log.warn('the attester key equals the relayer key; DESIGN §4 wants them separate');
  }
  const latestBlocks = createLatestBlockCache((chainId) => chain(chainId).client);
  const workerId = options.workerId ?? newWorkerId();
  // Work that is not an intent's step, done by one worker of several (docs/engine.md, "Work that runs once").
  const leases = createTaskLeaseHolder({
    taskLeases: store.taskLeases,
    owner: workerId,
    log,
    ...(options.taskLeaseMs !== undefined && { leaseMs: options.taskLeaseMs }),
  });
  const sender = createTransactionSender({
    journal: store.signedTransactions,
    latestBlocks,
    clients: deps.clients,
    confirmations: (chainId) => chain(chainId).config.confirmations,
    maxFeePerGas: (chainId) => chain(chainId).config.maxFeePerGasWei,
    log: log.child({ component: 'sender' }),
    operators: [keys.relayer.address, keys.solver.address, keys.attester.address],
    leases,
    ...(options.senderTiming && { timing: options.senderTiming }),
  });
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
    ...(deps.metrics && { metrics: deps.metrics }),
    // The runner is made from this context just below; these run only after.
    enqueue: (intentId, step, runAt, journalMark) =>
      enqueueSteps(store.steps, runner, intentId, [{ step, runAt }], journalMark),
    moveWithSteps: (update, steps) => moveWithSteps(store.intents, runner, update, steps),
  };
  const runner = createStepRunner(ctx, {
    workerId,
    due,
    ...(options.stepPollIntervalMs !== undefined && { pollIntervalMs: options.stepPollIntervalMs }),
    ...(options.stepIdlePollIntervalMs !== undefined && {
      idlePollIntervalMs: options.stepIdlePollIntervalMs,
    }),
    ...(options.stepBatchSize !== undefined && { batchSize: options.stepBatchSize }),
    ...(options.stepLeaseMs !== undefined && { leaseMs: options.stepLeaseMs }),
  });

  const watcher = createDepositWatcher(ctx, {
    ...(options.depositScanIntervalMs !== undefined && { intervalMs: options.depositScanIntervalMs }),
    ...(options.depositScanBatch !== undefined && { batch: options.depositScanBatch }),
    chainIds: deps.chains.map((c) => c.chainId),
    startExecution: (intentId) => startExecution(ctx, { intentId }),
    leases,
  });

  // Lost transactions of a chain that came back behind are sent again without waiting for a later send.
  const chainWatch = createChainWatch({
    chainIds: deps.chains.map((c) => c.chainId),
    head: (chainId) => chain(chainId).client.getBlockNumber({ cacheTime: 0 }),
    sender,
    log: log.child({ component: 'chain-watch' }),
    ...(options.chainWatchTiming && { timing: options.chainWatchTiming }),
  });

  // Leases of workers that died on this machine end at once, not when they run out (docs/engine.md).
  const deadWorkers = createDeadWorkerWatch({
    store,
    log,
    ...(options.deadWorkerLookMs !== undefined && { intervalMs: options.deadWorkerLookMs }),
  });

  return {
    async requestExecution({ intentId, depositTransactionHash, depositSignature, intent }) {
      // A gasless deposit (verified by ExecuteIntent) is pulled inside the origin execution: src/engine/gasless.
      const gasless = depositSignature ? toDepositIntentEntry(depositSignature) : undefined;
      return startExecution(ctx, { intentId, depositTransactionHash, gasless, intent });
    },
    retryExecution: (input) => retryExecution(ctx, input),
    async relayRecovery(input) {
      const sent = await relayRecovery(ctx, input);
      return { hash: sent.hash, status: sent.receipt.status, minedAt: sent.minedAt };
    },
    async start() {
      await deadWorkers.start();
      const resent = await sender.rebroadcastUnconfirmed();
      if (resent > 0) log.info('re-broadcast stored unconfirmed transactions', { count: resent });
      ctx.settlements?.adoptUnconfirmed(
        deps.chains.map((c) => ({ chainId: c.chainId, settler: c.contracts.originSettler as Address })),
      );
      runner.start();
      watcher.start();
      chainWatch.start();
      log.info('engine started', { workerId });
    },
    async stop() {
      // All at once, each bounded: the runner stops leasing and waits for its steps; a running restore (the
      // chain watch's or a waiting send's) stops at its next transaction boundary and starts no other; the
      // deposit watcher ends its round and releases its lease.
      const [left] = await Promise.all([
        runner.stop(options.stopWaitMs ?? ENGINE_STOP_WAIT_MS),
        sender.stopRestoring().then(() => chainWatch.stop()),
        watcher.stop(),
        deadWorkers.stop(),
      ]);
      if (left.length === 0) return;
      // Signing stops first, so every transaction these steps sent is journaled before another worker can
      // take them over and resume it; what they do after the hand-back cannot sign or complete anything.
      await sender.stopSigning();
      const released = await store.steps.release({ ids: left, owner: workerId });
      // Nothing else tells the other workers: their loops hear intent changes, so each intent handed back is
      // announced as one, and they lease its steps now instead of at their idle poll.
      for (const intentId of new Set(released)) await store.events.publish(intentId);
      log.info('steps still running at stop handed back to other workers', {
        running: left.length,
        released: released.length,
      });
    },
  };
}
