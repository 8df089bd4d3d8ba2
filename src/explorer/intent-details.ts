/**
 * `POST /explorer/rpc/IntentDetails`: what the explorer's intent page needs beyond the client methods. The
 * receipt has no block numbers, gas or deadlines: the deadlines and the refund path are in the intent's
 * execution plan (never sent to clients), and block and gas are on the chains. Scoped to the caller's
 * project like every read; an intent of another project is NotFound.
 */
import { LRUCache } from 'lru-cache';
import type { PublicClient, TransactionReceipt } from 'viem';
import { NotFoundError } from '../api/errors/rpc-errors.ts';
import type { ExecutionPlan } from '../intents/plan/types.ts';
import { decodePlan } from '../intents/plan-codec.ts';
import type { IntentTransactionRecord, Store } from '../store/index.ts';
import type { IntentDetails } from './page/types.ts';

/** A chain that does not answer within this long (ms) leaves the block and gas out rather than hold the page. */
export const RECEIPT_READ_TIMEOUT_MS = 3_000;
/** Mined receipts kept: a page re-reads its intent's few transactions on every update it shows. */
const RECEIPT_CACHE_MAX = 10_000;

/** The answer's shape is the page's own (the page reads it; one definition for both). */
type TransactionDetails = IntentDetails['transactions'][number];

export interface IntentDetailsDeps {
  store: Store;
  clients: ReadonlyMap<number, PublicClient>;
}

export function createIntentDetails(deps: IntentDetailsDeps) {
  const receipts = new LRUCache<string, TransactionReceipt>({ max: RECEIPT_CACHE_MAX });
  const minedReceipt = async (chainId: number, hash: string): Promise<TransactionReceipt | undefined> => {
    const key = `${chainId}:${hash}`;
    const cached = receipts.get(key);
    if (cached) return cached;
    const client = deps.clients.get(chainId);
    if (!client) return undefined;
    const receipt = await withTimeout(client.getTransactionReceipt({ hash: hash as `0x${string}` }));
    if (receipt) receipts.set(key, receipt);
    return receipt;
  };

  return async (projectId: number, intentId: string): Promise<IntentDetails> => {
    const intent = await deps.store.intents.get({ projectId, intentId });
    if (!intent) throw new NotFoundError(`intent ${intentId} not found`);
    const rows = await deps.store.transactions.list(intent.intentId);
    const transactions = await Promise.all(
      rows.filter((row) => row.txnHash).map((row) => transactionDetails(row, minedReceipt)),
    );
    const plan = intent.planJson ? decodePlan(intent.planJson) : undefined;
    return { intentId: intent.intentId, ...(plan && fromPlan(plan)), transactions };
  };
}

async function transactionDetails(
  row: IntentTransactionRecord,
  read: (chainId: number, hash: string) => Promise<TransactionReceipt | undefined>,
): Promise<TransactionDetails> {
  const hash = row.txnHash!;
  const base = { kind: row.kind, chainId: row.chainId, hash };
  const receipt = await read(row.chainId, hash);
  if (!receipt) return base;
  return {
    ...base,
    blockNumber: receipt.blockNumber.toString(),
    gasUsed: receipt.gasUsed.toString(),
    effectiveGasPrice: receipt.effectiveGasPrice.toString(),
    feeNative: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
    succeeded: receipt.status === 'success',
  };
}

function fromPlan(plan: ExecutionPlan): Omit<IntentDetails, 'intentId' | 'transactions'> {
  const d = plan.deadlines;
  const origin = plan.origin.intent;
  const order = plan.order;
  return {
    refundRecipient: origin.refundRecipient,
    deadlines: {
      quoteExpiresAt: isoSeconds(d.quoteExpiresAt),
      originDeadline: isoSeconds(d.originDeadline),
      ...(d.fillDeadline !== undefined && { fillDeadline: isoSeconds(d.fillDeadline) }),
      ...(d.destinationDeadline !== undefined && { destinationDeadline: isoSeconds(d.destinationDeadline) }),
      ...(d.settlementRefundAt !== undefined && { settlementRefundAt: isoSeconds(d.settlementRefundAt) }),
    },
    deposit: {
      chainId: Number(origin.chainId),
      tokenAddress: origin.depositToken,
      amount: origin.depositAmount.toString(),
    },
    ...(order && {
      order: {
        originChainId: Number(origin.chainId),
        inputToken: order.inputToken,
        inputAmount: order.inputAmount.toString(),
        destinationChainId: Number(order.destChainId),
        outputToken: order.outputToken,
        outputAmount: order.outputAmount.toString(),
      },
    }),
  };
}

function isoSeconds(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString();
}

/** The read, or undefined when it fails or takes longer than RECEIPT_READ_TIMEOUT_MS (not mined, chain down). */
function withTimeout<T>(read: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), RECEIPT_READ_TIMEOUT_MS);
    read.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
