/**
 * A receipt's transaction rows → wire IntentTransactions. Beyond the row's columns a transaction shows
 * the operator's meta-transaction it stands for, as quoted (`originMetaTxn`, `destinationMetaTxn`, and
 * their gas fees): its id, the fee quote in the fee token and the gas it bridges. A gasless deposit is
 * performed by the origin meta-transaction, so it shows that id and the fee the owner signed for.
 *
 * The owner's signatures are never shown: a gasless deposit's `depositIntentEntry` is the row's entry
 * without `intentSignature` and `permitSignature` (the engine keeps them on the row; no reader needs
 * them, and a copy in every receipt is one more place to take them from). The origin calldata, which
 * carries the authorization as sent, is stored only once it is broadcast and public.
 */
import { zeroAddress } from 'viem';
import type {
  IntentTransactionRecord,
  ReceiptIntent,
  ReceiptWireFields,
  TransactionKind,
} from '../../../store/index.ts';
import { type Dialect, transactionStatusIn } from '../../dialect.ts';
import type { IntentReceipt } from '../../schemas/receipt.ts';

export type WireTransaction = IntentReceipt['depositTransaction'];
type WireEntry = NonNullable<WireTransaction['depositIntentEntry']>;

const TYPE_OF_KIND: Record<TransactionKind, WireTransaction['type']> = {
  deposit: 'DEPOSIT',
  origin: 'ORIGIN',
  destination: 'DESTINATION',
  refund: 'REFUND',
};

/** The meta-transaction members a row shows; empty when it stands for none. */
type MetaTxnFields = Pick<WireTransaction, 'metaTxnId' | 'metaTxnFeeQuote' | 'bridgeGas'>;

/** The members of each kind's meta-transaction, as quoted. */
export function quotedMetaTxns(stored: ReceiptWireFields): Partial<Record<TransactionKind, MetaTxnFields>> {
  const origin = stored.originMetaTxn;
  const destination = stored.destinationMetaTxn;
  return {
    origin: metaTxnFields(origin?.id, stored.fees?.originGas?.metaTxnGasQuote, origin?.bridgeGas),
    // Same-chain intents have no destination meta-transaction: the origin one delivers.
    ...(destination && {
      destination: metaTxnFields(
        destination.id,
        stored.fees?.destinationGas?.metaTxnGasQuote,
        destination.bridgeGas,
      ),
    }),
  };
}

function metaTxnFields(id?: string, feeQuote?: string, bridgeGas?: string): MetaTxnFields {
  const out: MetaTxnFields = {};
  if (id) out.metaTxnId = id;
  if (feeQuote !== undefined) out.metaTxnFeeQuote = feeQuote;
  // Zero means no gas is bridged (a destination execution, a same-chain origin): nothing to show.
  if (bridgeGas !== undefined && BigInt(bridgeGas) > 0n) out.bridgeGas = BigInt(bridgeGas);
  return out;
}

export function transactionToWire(
  tx: IntentTransactionRecord,
  dialect: Dialect,
  metaTxns: Partial<Record<TransactionKind, MetaTxnFields>>,
): WireTransaction {
  const { depositIntentEntry, ...meta } = tx.meta ?? {};
  const out: WireTransaction = {
    ...meta,
    ...metaTxns[tx.kind],
    id: tx.id,
    intentId: tx.intentId,
    status: transactionStatusIn(dialect, tx.status),
    chainId: tx.chainId,
    type: TYPE_OF_KIND[tx.kind],
    context: 'NONE',
    fromAddress: tx.fromAddress ?? zeroAddress,
    toAddress: tx.toAddress ?? zeroAddress,
    tokenAddress: tx.tokenAddress ?? zeroAddress,
    tokenAmount: tx.tokenAmount ?? 0n,
    createdAt: tx.createdAt.toISOString(),
    updatedAt: tx.updatedAt.toISOString(),
  } as WireTransaction;
  if (isEntry(depositIntentEntry)) {
    const { intentSignature: _intent, permitSignature: _permit, ...shown } = depositIntentEntry;
    out.depositIntentEntry = shown as WireEntry;
    // The relayed origin call performs the deposit; the fee is what the owner signed for.
    if (metaTxns.origin?.metaTxnId) out.metaTxnId = metaTxns.origin.metaTxnId;
    out.metaTxnFeeQuote = String(depositIntentEntry.feeAmount);
  }
  if (tx.statusReason) out.statusReason = tx.statusReason;
  if (tx.txnHash) out.txnHash = tx.txnHash;
  if (tx.calldata) out.calldata = tx.calldata;
  if (tx.minedAt) out.txnMinedAt = tx.minedAt.toISOString();
  return out;
}

function isEntry(value: unknown): value is Record<string, unknown> & { feeAmount: unknown } {
  return typeof value === 'object' && value !== null && 'feeAmount' in value;
}

/** Receipts always carry deposit and origin (0.9.4 requires them): before a row exists, what is expected. */
export function placeholder(
  intent: ReceiptIntent,
  kind: 'deposit' | 'origin',
  metaTxns: Partial<Record<TransactionKind, MetaTxnFields>>,
): WireTransaction {
  const deposit = kind === 'deposit';
  return {
    ...(deposit ? {} : metaTxns.origin),
    intentId: intent.intentId,
    status: 'UNKNOWN',
    chainId: intent.originChainId,
    type: deposit ? 'DEPOSIT' : 'ORIGIN',
    context: 'NONE',
    fromAddress: deposit ? intent.ownerAddress : intent.originIntentAddress,
    toAddress: intent.originIntentAddress,
    tokenAddress: intent.originTokenAddress,
    tokenAmount: intent.originTokenAmount,
  };
}
