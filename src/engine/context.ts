/** What every step gets: the store, one chain's config and client by id, the keys, the sender. */
import type { LocalAccount, PublicClient } from 'viem';
import type { TransactionSender } from '../chains/create-transaction-sender.ts';
import { UnknownChainError } from '../chains/errors.ts';
import type { LatestBlockCache } from '../chains/latest-block-cache.ts';
import type { JournalMark } from '../chains/transaction-journal.ts';
import type { ExecutionPlan } from '../intents/plan/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type {
  IntentRecord,
  IntentStatus,
  RowAdvance,
  StatusUpdate,
  StatusUpdateResult,
  Store,
  TransactionKind,
} from '../store/types.ts';
import type { Attester } from './attester.ts';
import type { OrderMemo } from './order-memo.ts';
import type { RowWrite } from './receipts.ts';
import type { SettlementBatcher } from './settlement-batcher.ts';

export interface EngineKeys {
  /** Executes origin and destination intents, submits settlements. */
  relayer: LocalAccount;
  /** Fills orders from its own inventory on the destination chain. */
  solver: LocalAccount;
  /** Signs fill attestations; never the relayer key. */
  attester: LocalAccount;
}

export interface EngineChain {
  config: ChainConfig;
  client: PublicClient;
}

export interface EngineContext {
  store: Store;
  log: Logger;
  keys: EngineKeys;
  sender: TransactionSender<RowAdvance>;
  attester: Attester;
  /** The latest block per chain, shared with the sender's fee caps (deadline checks: recentChainNow). */
  latestBlocks?: LatestBlockCache;
  /** Orders decoded by the origin step, for the steps after it (a miss reads the origin receipt). */
  orders?: OrderMemo;
  /** Shares settlement transactions between intents (absent: each order is settled on its own). */
  settlements?: SettlementBatcher;
  chain(chainId: number | bigint): EngineChain;
  /**
   * Enqueues a step (to run at `runAt`, default now). One due now is leased to this process's step loop by
   * the insert and runs at once when the loop has a free slot; otherwise the loop is woken (enqueue-steps.ts).
   * `journalMark`: a send's journal mark written with the step (StepsRepo.enqueueAll's; one statement on
   * Postgres): the fill's broadcast mark with the destination step.
   */
  enqueue(intentId: string, step: string, runAt?: Date, journalMark?: JournalMark): Promise<void>;
  /**
   * Moves an intent's status (store.intents.updateStatus) and journals `steps` of it with the move (each at
   * its `runAt`, default now; whether or not the status moves), one statement on Postgres; those due now are
   * leased to this process's step loop as `enqueue` leases one.
   */
  moveWithSteps(
    update: StatusUpdate,
    steps: readonly { step: string; runAt?: Date | undefined }[],
  ): Promise<StatusUpdateResult>;
  /** Refund timing (src/engine/refunds/constants.ts defaults; tests shorten them). */
  refundTiming?: Partial<RefundTiming>;
  /** Step runs and lease takeovers are counted here (src/metrics); absent: not counted. */
  metrics?: Metrics;
}

export interface RefundTiming {
  /** Longest wait (ms) before a refund step re-reads a chain clock it is waiting on. */
  recheckMaxMs: number;
  /** How often (ms) an intent address is re-read for late deposits during the watch window. */
  lateDepositRecheckMs: number;
}

/** A step's input: the intent row and its decoded plan. */
export interface StepInput {
  intent: IntentRecord;
  plan: ExecutionPlan;
}

export type StepResult =
  /**
   * Finished: enqueue these steps next. `row`: the step's last receipt row write, committed with its
   * completion (one statement on Postgres) instead of written before it, with the journal mark it carries
   * (rowStages' held mined mark).
   */
  | {
      kind: 'done';
      next: string[];
      row?: { kind: TransactionKind; write: RowWrite; journalMark?: JournalMark | undefined };
      /**
       * The intent's end, committed with the completion (one statement on Postgres) instead of moved before
       * it: its receipt rows (with the journal marks they carry), their events before the status's. Moved
       * whether or not the step still held its lease, as a move of its own would have been.
       */
      end?: { to: IntentStatus; rowsBefore: RowAdvance[] };
      /**
       * A send's journal mark with no receipt row to ride in (the fill's mined mark, held by the sender:
       * `SendRequest.holdMinedMark`), written with the completion.
       */
      journalMark?: JournalMark | undefined;
    }
  /** Nothing to do yet (deposit not there, not deep enough): look again later. Not an error. */
  | { kind: 'wait'; afterMs: number; reason: string };

export interface StepDefinition {
  name: string;
  run(ctx: EngineContext, input: StepInput): Promise<StepResult>;
  /** Records a non-retryable failure on the receipt (row FAILED with the reason, terminal status if any). */
  giveUp(ctx: EngineContext, input: StepInput, reason: string): Promise<void>;
  /** Runs even once the intent is terminal (settlement, refunds, late deposits); other steps are skipped. */
  runsAfterTerminal?: boolean;
  /**
   * When a first run could do anything (a refund before its deadline cannot): the step is journaled to run
   * then rather than at once. Absent: at once.
   */
  firstLookAt?(ctx: EngineContext, input: StepInput): Date;
}

export function chainLookup(
  chains: readonly ChainConfig[],
  clients: ReadonlyMap<number, PublicClient>,
): (chainId: number | bigint) => EngineChain {
  return (chainId) => {
    const id = Number(chainId);
    const config = chains.find((c) => c.chainId === id);
    const client = clients.get(id);
    if (!config || !client) {
      throw new UnknownChainError(`chain ${id} is not configured for the engine`, {
        details: { chainId: id },
      });
    }
    return { config, client };
  };
}
