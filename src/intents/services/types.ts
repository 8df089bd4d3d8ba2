/** What the intent services need (built once by the caller), what they take and what they answer. */
import type { Address, PublicClient } from 'viem';
import type { IntentEngine } from '../../engine/types.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { Logger } from '../../internal/logger.ts';
import type { SolverInventory } from '../../solver/create-solver-inventory.ts';
import type { IntentReceiptRecord, IntentStatus, Store } from '../../store/index.ts';
import type { Quote, QuoteRequest } from '../intent-document.ts';
import type { OrderRefundTransaction } from './build-order-refund.ts';
import type { DepositSignatureInput } from './gasless/verify-deposit-signature.ts';

export interface IntentPrices {
  getPriceUsd(chainId: number, token: string): Promise<number | undefined> | number | undefined;
}

export interface IntentServicesConfig {
  /** The service fee in basis points charged on every quote (0 when absent). */
  serviceFeeBps?: bigint | undefined;
  /** The OriginSettler's refund grace in seconds (the plan's default when absent). */
  settlementGraceSeconds?: bigint | undefined;
  /** `trailsVersion` / `serviceVersion` in quotes. */
  version?: string | undefined;
  /** Wall clock; tests drive expiry with it. */
  now?: (() => Date) | undefined;
  /** Hold time of WaitIntentReceipt (ms); default WAIT_HOLD_MS. */
  waitHoldMs?: number | undefined;
}

export interface IntentServicesDeps {
  store: Store;
  chains: readonly ChainConfig[];
  /** A read client per configured chain id. */
  clients: ReadonlyMap<number, PublicClient>;
  prices: IntentPrices;
  engine: Pick<IntentEngine, 'requestExecution'>;
  /** The operator's public addresses: origin executor, solver, fee collector. */
  operator: { relayer: Address; solver: Address; feeCollector: Address };
  config?: IntentServicesConfig | undefined;
  log: Logger;
  /** The solver's inventory net of open orders (quotes check it, commits reserve it); default: built here. */
  inventory?: SolverInventory | undefined;
}

/** CommitIntent's intent: compared by meaning with the stored quote (compare-intent.ts). */
export interface SubmittedIntent {
  intentId: string;
}

export interface ExecuteRequest {
  intentId: string;
  /** The deposit's transaction hash, mined or not. */
  depositTransactionHash?: string | undefined;
  /** Or the owner's signatures for a gasless deposit. */
  depositSignature?: DepositSignatureInput | undefined;
}

export interface AbortRequest {
  intentId: string;
  /** The chain the owner's cancellation was sent on. */
  chainId: number;
  abortTransactionHash: string;
}

export interface WaitRequest {
  intentId: string;
  /** The states the caller last saw, in the store's spelling; absent or empty: answer at once. */
  lastReceiptStates?: readonly string[] | undefined;
}

/** Who holds a wait: the project it reads in, and how it learns that its caller has gone. */
export interface WaitCaller {
  projectId: number | undefined;
  /** Aborted when the caller goes away before the answer. */
  signal?: AbortSignal | undefined;
  /** Lighter than `signal`: calls `listener.clientLeft()` once when the caller goes away. */
  onClientLeave?(listener: { clientLeft(): void }): void;
}

/**
 * Holds a call until the intent's receipt states differ from `lastReceiptStates`, the intent is final, the
 * hold time passes, the caller leaves or the services close; then answers with `answer(record, caller)`.
 */
export type ReceiptWaiter<C extends WaitCaller, A> = (request: WaitRequest, caller: C) => Promise<A>;

export interface IntentServices {
  /** Plans the intent and stores it QUOTED in the project. */
  quote(request: QuoteRequest, projectId: number): Promise<Quote>;
  /** QUOTED → COMMITTED for the intent exactly as quoted; the execute window opens. */
  commit(intent: SubmittedIntent, projectId: number): Promise<{ intentId: string }>;
  /** Hands a committed intent and its deposit to the engine; answers the status it is in. */
  execute(
    request: ExecuteRequest,
    projectId: number,
  ): Promise<{ intentId: string; intentStatus: IntentStatus }>;
  /** The OriginSettler refund of a cross-chain intent's unfilled order, for anyone to send, and whether it is due. */
  orderRefund(intentId: string, projectId: number): Promise<OrderRefundTransaction>;
  /** Records the owner's on-chain cancellation: ABORTED. */
  abort(request: AbortRequest, projectId: number): Promise<{ intentId: string; status: IntentStatus }>;
  /** A waiter whose held calls end with `answer` (the caller's encoding of the receipt). */
  receiptWaiter<C extends WaitCaller, A>(
    answer: (record: IntentReceiptRecord, caller: C) => A,
  ): ReceiptWaiter<C, A>;
  /** Answers every held wait at once (server shutdown). */
  close(): void;
}
