/**
 * Stored intents and transactions → the wire shapes of GetIntent, receipts and history. The stored
 * `intent` is the quote as it went out; status, timestamps, `id` and `projectId` come from the row,
 * which is newer. Receipts always carry deposit and origin transactions (0.9.4 requires them): before
 * the engine records one, a placeholder with status UNKNOWN describes what is expected
 * (transaction-to-wire.ts).
 */
import { zeroAddress } from 'viem';
import type { IntentReceiptRecord, IntentRecord, ReceiptWireFields } from '../../../store/index.ts';
import type { ApiDeps } from '../../context.ts';
import type { Dialect } from '../../dialect.ts';
import type { MethodResponse } from '../../schemas/methods.ts';
import type { IntentReceipt, IntentSummary } from '../../schemas/receipt.ts';
import { listedTokens, sameAddress } from '../listed-tokens.ts';
import { placeholder, quotedMetaTxns, transactionToWire } from './transaction-to-wire.ts';

type WireIntent = MethodResponse<'GetIntent'>['intent'];
type TokenMeta = IntentReceipt['summary']['originTokenMetadata'];

export function intentToWire(record: IntentRecord): WireIntent {
  const stored = (record.intent ?? {}) as Record<string, unknown>;
  return {
    ...stored,
    id: record.id,
    projectId: record.projectId,
    intentId: record.intentId,
    status: record.status,
    ownerAddress: record.ownerAddress,
    originChainId: record.originChainId,
    destinationChainId: record.destinationChainId,
    originIntentAddress: record.originIntentAddress,
    destinationIntentAddress: record.destinationIntentAddress,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  } as WireIntent;
}

export function tokenMetadata(deps: Pick<ApiDeps, 'chainById'>, chainId: number, address: string): TokenMeta {
  const chain = deps.chainById.get(chainId);
  const token = chain ? listedTokens(chain).find((t) => sameAddress(t.address, address)) : undefined;
  const meta: TokenMeta = {
    chainId,
    tokenAddress: address,
    name: token?.name ?? '',
    symbol: token?.symbol ?? '',
  };
  if (token) meta.decimals = token.decimals;
  if (token?.logoUri) meta.logoUri = token.logoUri;
  return meta;
}

/** `dialect` decides only the spelling of transaction statuses (see transactionStatusIn). */
export function receiptToWire(
  deps: Pick<ApiDeps, 'chainById'>,
  { intent, transactions }: IntentReceiptRecord,
  dialect: Dialect = 'Service',
): IntentReceipt {
  // A receipt read (getReceipt) holds only these fields of the wire intent; other reads hold all of it.
  const stored = (intent.intent ?? {}) as ReceiptWireFields;
  const callData = stored.quoteRequest?.destinationCallData;
  const summary: IntentReceipt['summary'] = {
    intentId: intent.intentId,
    status: intent.status,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    tradeType: stored.quoteRequest?.tradeType ?? 'EXACT_INPUT',
    routeProviders: (stored.quote?.routeProviders ?? []) as IntentReceipt['summary']['routeProviders'],
    originIntentAddress: intent.originIntentAddress,
    originTokenAddress: intent.originTokenAddress,
    originTokenAmount: intent.originTokenAmount,
    originTokenMetadata: tokenMetadata(deps, intent.originChainId, intent.originTokenAddress),
    destinationIntentAddress: intent.destinationIntentAddress,
    destinationTokenAddress: intent.destinationTokenAddress,
    destinationTokenAmount: intent.destinationTokenAmount,
    destinationTokenMetadata: tokenMetadata(deps, intent.destinationChainId, intent.destinationTokenAddress),
    destinationHasCallData: Boolean(callData && callData !== '0x'),
    destinationHasCallValue: BigInt(String(stored.quoteRequest?.destinationCallValue ?? 0)) > 0n,
    // The store keeps the quoted amounts; the transactions carry what actually moved.
    quotedOriginTokenAmount: intent.originTokenAmount,
    quotedDestinationTokenAmount: intent.destinationTokenAmount,
    createdAt: intent.createdAt.toISOString(),
    expiresAt: stored.expiresAt ?? intent.quoteExpiresAt.toISOString(),
  };
  if (stored.quoteRequest?.destinationToAddress)
    summary.destinationToAddress = stored.quoteRequest.destinationToAddress;
  const mode = stored.quoteRequest?.mode;
  if (mode) summary.mode = mode as NonNullable<IntentReceipt['summary']['mode']>;
  if (intent.startedAt) summary.startedAt = intent.startedAt.toISOString();
  if (intent.finishedAt) summary.finishedAt = intent.finishedAt.toISOString();

  const metaTxns = quotedMetaTxns(stored);
  const receipt: IntentReceipt = {
    id: intent.id,
    projectId: intent.projectId,
    intentId: intent.intentId,
    status: intent.status,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    depositTransaction: transactions.deposit
      ? transactionToWire(transactions.deposit, dialect, metaTxns)
      : placeholder(intent, 'deposit', metaTxns),
    originTransaction: transactions.origin
      ? transactionToWire(transactions.origin, dialect, metaTxns)
      : placeholder(intent, 'origin', metaTxns),
    summary,
    createdAt: intent.createdAt.toISOString(),
    updatedAt: intent.updatedAt.toISOString(),
  };
  if (transactions.deposit) receipt.depositTransactionId = transactions.deposit.id;
  if (transactions.origin) receipt.originTransactionId = transactions.origin.id;
  if (transactions.destination) {
    receipt.destinationTransaction = transactionToWire(transactions.destination, dialect, metaTxns);
    receipt.destinationTransactionId = transactions.destination.id;
  }
  if (transactions.refund) {
    receipt.refundTransaction = transactionToWire(transactions.refund, dialect, metaTxns);
    receipt.refundTransactionId = transactions.refund.id;
  }
  return receipt;
}

/** One GetIntentHistory entry, without balances. */
export function historyEntryToWire(
  deps: Pick<ApiDeps, 'chainById'>,
  record: IntentReceiptRecord,
  dialect: Dialect = 'Service',
) {
  return {
    intentId: record.intent.intentId,
    status: record.intent.status,
    expiresAt: record.intent.quoteExpiresAt.toISOString(),
    receipt: receiptToWire(deps, record, dialect),
    createdAt: record.intent.createdAt.toISOString(),
    updatedAt: record.intent.updatedAt.toISOString(),
  };
}

export function summaryToWire(
  deps: ApiDeps,
  record: IntentReceiptRecord,
  dialect: Dialect = 'Service',
): IntentSummary {
  const r = receiptToWire(deps, record, dialect);
  const out: IntentSummary = {
    intentId: r.intentId,
    status: r.status,
    ownerAddress: r.ownerAddress,
    originChainId: r.originChainId,
    destinationChainId: r.destinationChainId,
    originIntentAddress: r.summary.originIntentAddress,
    destinationIntentAddress: r.summary.destinationIntentAddress,
    depositTransactionStatus: r.depositTransaction.status,
    originTransactionStatus: r.originTransaction.status,
    destinationTransactionStatus: r.destinationTransaction?.status ?? 'UNKNOWN',
    originTokenAddress: r.summary.originTokenAddress,
    originTokenAmount: r.summary.originTokenAmount,
    quotedOriginTokenAmount: record.intent.originTokenAmount,
    originTokenMetadata: r.summary.originTokenMetadata,
    destinationTokenAddress: record.intent.destinationTokenAddress,
    destinationTokenAmount: record.intent.destinationTokenAmount,
    quotedDestinationTokenAmount: record.intent.destinationTokenAmount,
    destinationTokenMetadata: r.summary.destinationTokenMetadata,
    destinationToAddress: r.summary.destinationToAddress ?? zeroAddress,
    expiresAt: r.summary.expiresAt,
    createdAt: r.summary.createdAt,
    updatedAt: record.intent.updatedAt.toISOString(),
  };
  if (r.depositTransaction.txnHash) out.depositTransactionHash = r.depositTransaction.txnHash;
  if (r.originTransaction.txnHash) out.originTransactionHash = r.originTransaction.txnHash;
  if (r.destinationTransaction?.txnHash) out.destinationTransactionHash = r.destinationTransaction.txnHash;
  return out;
}
