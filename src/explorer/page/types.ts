/**
 * The parts of the API's answers the page reads, as they arrive on the wire (/rpc/Trails names): amounts are
 * decimal strings in base units, USD values numbers, times RFC 3339.
 */
export type IntentStatus =
  | 'QUOTED'
  | 'COMMITTED'
  | 'EXECUTING'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'REFUNDED'
  | 'ABORTED'
  | 'INVALID';

export const INTENT_STATUSES: IntentStatus[] = [
  'QUOTED',
  'COMMITTED',
  'EXECUTING',
  'SUCCEEDED',
  'FAILED',
  'REFUNDED',
  'ABORTED',
  'INVALID',
];

export interface TokenMetadata {
  chainId: number;
  tokenAddress: string;
  symbol: string;
  decimals?: number;
}

export interface IntentTransaction {
  status: string;
  statusReason?: string;
  chainId: number;
  fromAddress: string;
  toAddress: string;
  tokenAddress: string;
  tokenAmount: string;
  txnHash?: string;
  txnMinedAt?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface IntentReceipt {
  intentId: string;
  status: IntentStatus;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  depositTransaction: IntentTransaction;
  originTransaction: IntentTransaction;
  destinationTransaction?: IntentTransaction;
  refundTransaction?: IntentTransaction;
  summary: {
    originIntentAddress: string;
    destinationIntentAddress: string;
    originTokenAddress: string;
    originTokenAmount: string;
    originTokenMetadata: TokenMetadata;
    destinationTokenAddress?: string;
    destinationTokenAmount?: string;
    destinationToAddress?: string;
    destinationTokenMetadata: TokenMetadata;
    createdAt: string;
    expiresAt: string;
    startedAt?: string;
    finishedAt?: string;
  };
  createdAt?: string;
  updatedAt?: string;
}

export interface GasFee {
  chainId: number;
  nativeTokenSymbol: string;
  nativeTokenPriceUsd?: number;
  totalFeeAmount: string;
  totalFeeUsd: string;
  metaTxnGasQuote: string;
}

export interface Intent {
  intentId: string;
  status: IntentStatus;
  expiresAt: string;
  quote: { fromAmount: string; fromAmountUsd: number; toAmount: string; toAmountUsd: number };
  fees: {
    originGas: GasFee;
    destinationGas?: GasFee;
    feeTokenAddress: string;
    gasFeeTotal: string;
    gasFeeUsd: number;
    providerFeeTotal: string;
    providerFeeUsd: number;
    trailsFeeTotal: string;
    trailsFeeUsd: number;
    collectorFeeTotal: string;
    collectorFeeUsd: number;
    totalFeeAmount: string;
    totalFeeUsd: number;
  };
}

export interface IntentHistoryEntry {
  intentId: string;
  status: IntentStatus;
  receipt: IntentReceipt;
  createdAt?: string;
}

export interface ChainInfo {
  id: number;
  name: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
}

export interface ServiceStatus {
  name: string;
  healthy: boolean;
  error?: string;
  latency: string;
}

export interface RuntimeStatus {
  healthOK: boolean;
  version: string;
  startTime: string;
  uptimeSeconds: number;
  hostname: string;
  services: ServiceStatus[];
}

/**
 * POST /explorer/rpc/IntentDetails (src/explorer/intent-details.ts answers with this type). Amounts and
 * block numbers are decimal strings; times RFC 3339 by the chains' clocks.
 */
export interface IntentDetails {
  intentId: string;
  /** Where every refund goes (the intents commit to it). */
  refundRecipient?: string;
  /** Absent for an intent stored without an execution plan. */
  deadlines?: {
    quoteExpiresAt: string;
    originDeadline: string;
    fillDeadline?: string;
    destinationDeadline?: string;
    settlementRefundAt?: string;
  };
  /** The strict deposit the origin account needs. */
  deposit?: { chainId: number; tokenAddress: string; amount: string };
  /** The order locked in the origin settler: what a refund before the fill returns, and what the fill pays. */
  order?: {
    originChainId: number;
    inputToken: string;
    inputAmount: string;
    destinationChainId: number;
    outputToken: string;
    outputAmount: string;
  };
  transactions: {
    kind: string;
    chainId: number;
    hash: string;
    blockNumber?: string;
    gasUsed?: string;
    effectiveGasPrice?: string;
    /** gasUsed × effectiveGasPrice, in the chain's native base units. */
    feeNative?: string;
    /** The chain's verdict (a mined revert is false); absent while not mined or the chain is unreachable. */
    succeeded?: boolean;
  }[];
}
