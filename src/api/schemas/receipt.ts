/** Receipts, their transactions, history entries and paging (client 0.9.4 names plus seed extras). */
import { type StaticDecode, Type } from '@sinclair/typebox';
import {
  IntentMode,
  IntentStatus,
  RouteProvider,
  SortOrder,
  TradeType,
  TransactionContext,
  TransactionStatus,
  TransactionType,
} from './enums.ts';
import { TransactionPrecondition } from './intent.ts';
import {
  Address,
  Amount,
  Bool,
  ChainId,
  HexData,
  IntentId,
  NonNegativeInt,
  Opt,
  Str,
  Timestamp,
  TxHash,
} from './wire.ts';

/**
 * A gasless deposit's terms as receipts show them. The spec's `intentSignature` and `permitSignature`
 * are left out of the schema, so no answer can carry the owner's signatures (transaction-to-wire.ts says
 * why); the hosted API types `intentSignature` optional and the 0.9.4 client never reads either.
 */
export const DepositIntentEntry = Type.Object(
  {
    permitDeadline: Opt(NonNegativeInt),
    permitAmount: Opt(Amount),
    feeAmount: Str(),
    feeToken: Str(),
    feeCollector: Str(),
    userNonce: NonNegativeInt,
    deadline: NonNegativeInt,
  },
  { title: 'DepositIntentEntry' },
);

export const IntentTransaction = Type.Object(
  {
    id: Opt(NonNegativeInt),
    intentId: IntentId,
    status: TransactionStatus,
    statusReason: Opt(Str()),
    chainId: ChainId,
    type: TransactionType,
    context: TransactionContext,
    fromAddress: Address,
    toAddress: Address,
    tokenAddress: Address,
    tokenAmount: Amount,
    bridgeGas: Opt(Amount),
    calldata: Opt(HexData),
    metaTxnId: Opt(Str()),
    metaTxnFeeQuote: Opt(Str()),
    precondition: Opt(TransactionPrecondition),
    depositIntentEntry: Opt(DepositIntentEntry),
    txnHash: Opt(TxHash),
    txnMinedAt: Opt(Timestamp),
    updatedAt: Opt(Timestamp),
    createdAt: Opt(Timestamp),
  },
  { title: 'IntentTransaction' },
);

export const TokenMetadata = Type.Object(
  {
    chainId: ChainId,
    tokenAddress: Address,
    name: Str(),
    symbol: Str(),
    decimals: Opt(NonNegativeInt),
    logoUri: Opt(Str()),
  },
  { title: 'TokenMetadata' },
);

export const IntentReceiptSummary = Type.Object(
  {
    intentId: IntentId,
    status: IntentStatus,
    ownerAddress: Address,
    originChainId: ChainId,
    destinationChainId: ChainId,
    tradeType: TradeType,
    routeProviders: Type.Array(RouteProvider),
    originIntentAddress: Address,
    originTokenAddress: Address,
    originTokenAmount: Amount,
    originTokenMetadata: TokenMetadata,
    destinationIntentAddress: Address,
    destinationTokenAddress: Opt(Address),
    destinationTokenAmount: Opt(Amount),
    destinationToAddress: Opt(Address),
    destinationTokenMetadata: TokenMetadata,
    destinationHasCallData: Bool,
    destinationHasCallValue: Bool,
    mode: Opt(IntentMode),
    /** What the quote said; `originTokenAmount` and `destinationTokenAmount` are the same amounts here. */
    quotedOriginTokenAmount: Opt(Amount),
    quotedDestinationTokenAmount: Opt(Amount),
    memo: Opt(Str()),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    startedAt: Opt(Timestamp),
    finishedAt: Opt(Timestamp),
  },
  { title: 'IntentReceiptSummary' },
);

export const IntentReceipt = Type.Object(
  {
    id: Opt(NonNegativeInt),
    projectId: Opt(NonNegativeInt),
    intentId: IntentId,
    status: IntentStatus,
    ownerAddress: Address,
    originChainId: ChainId,
    destinationChainId: ChainId,
    depositTransactionId: Opt(NonNegativeInt),
    depositTransaction: IntentTransaction,
    originTransactionId: Opt(NonNegativeInt),
    originTransaction: IntentTransaction,
    destinationTransactionId: Opt(NonNegativeInt),
    destinationTransaction: Opt(IntentTransaction),
    refundTransactionId: Opt(NonNegativeInt),
    refundTransaction: Opt(IntentTransaction),
    summary: IntentReceiptSummary,
    updatedAt: Opt(Timestamp),
    createdAt: Opt(Timestamp),
  },
  { title: 'IntentReceipt' },
);
export type IntentReceipt = StaticDecode<typeof IntentReceipt>;

export const TokenBalance = Type.Object(
  {
    contractAddress: Address,
    balance: Str({ description: 'base units, decimal string' }),
    balanceUsd: Opt(Str()),
    priceUsd: Opt(Str()),
    decimals: NonNegativeInt,
    chainId: ChainId,
    symbol: Str(),
  },
  { title: 'TokenBalance' },
);

export const IntentBalance = Type.Object(
  { intentAddress: Address, chainId: ChainId, tokens: Type.Array(TokenBalance) },
  { title: 'IntentBalance' },
);

export const IntentHistory = Type.Object(
  {
    intentId: IntentId,
    status: IntentStatus,
    expiresAt: Timestamp,
    receipt: IntentReceipt,
    updatedAt: Opt(Timestamp),
    createdAt: Opt(Timestamp),
    hasBalance: Opt(Bool),
    balances: Opt(Type.Array(IntentBalance)),
  },
  { title: 'IntentHistory' },
);
export type IntentHistory = StaticDecode<typeof IntentHistory>;

export const IntentSummary = Type.Object(
  {
    intentId: IntentId,
    status: IntentStatus,
    ownerAddress: Address,
    originChainId: ChainId,
    destinationChainId: ChainId,
    originIntentAddress: Address,
    destinationIntentAddress: Address,
    depositTransactionHash: Opt(TxHash),
    depositTransactionStatus: TransactionStatus,
    originTransactionHash: Opt(TxHash),
    originTransactionStatus: TransactionStatus,
    destinationTransactionHash: Opt(TxHash),
    destinationTransactionStatus: TransactionStatus,
    originTokenAddress: Address,
    originTokenAmount: Amount,
    quotedOriginTokenAmount: Opt(Amount),
    originTokenMetadata: TokenMetadata,
    destinationTokenAddress: Address,
    destinationTokenAmount: Amount,
    quotedDestinationTokenAmount: Opt(Amount),
    destinationTokenMetadata: TokenMetadata,
    destinationToAddress: Address,
    expiresAt: Timestamp,
    updatedAt: Opt(Timestamp),
    createdAt: Timestamp,
  },
  { title: 'IntentSummary' },
);
export type IntentSummary = StaticDecode<typeof IntentSummary>;

export const SortBy = Type.Object(
  { column: Str({ 'x-error': 'must be a column name (id or createdAt)' }), order: SortOrder },
  { title: 'SortBy' },
);

/** Largest page GetIntentHistory serves: full receipts are ~3 KB each, so 100 keeps a page under ~300 KB. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * A page request or cursor; `nextPage` is sent back verbatim by clients and is absent on the last page.
 * The store checks the members a schema cannot (columns, cursor range) and names the one at fault.
 */
export const Page = Type.Object(
  {
    column: Opt(Str({ description: 'id (default) or createdAt' })),
    before: Opt(
      Type.Integer({
        'x-error': 'must be an integer cursor',
        description: 'an intent id: the page that ends at that intent (previous page)',
      }),
    ),
    after: Opt(
      Type.Integer({
        'x-error': 'must be an integer cursor',
        description: 'an intent id: the page that follows that intent (next page)',
      }),
    ),
    sort: Opt(Type.Array(SortBy)),
    pageSize: Opt(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        'x-error': `must be an integer between 1 and ${MAX_PAGE_SIZE}`,
      }),
    ),
    more: Opt(Bool),
  },
  { title: 'Page' },
);
export type Page = StaticDecode<typeof Page>;
