/** What the recovery services need (built once by the caller) and the shapes they answer. */
import type { Address, Hex, PublicClient } from 'viem';
import type { IntentEngine } from '../../engine/types.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { Store } from '../../store/index.ts';
import type { IntentPrices } from '../services/types.ts';
import type { AddressBalance } from './address-balances.ts';

export interface RecoveryDeps {
  store: Store;
  chains: readonly ChainConfig[];
  /** A read client per configured chain id. */
  clients: ReadonlyMap<number, PublicClient>;
  prices: IntentPrices;
  engine: Pick<IntentEngine, 'retryExecution' | 'relayRecovery'>;
  /** Fresh recovery nonces; default 32 random bytes. */
  randomNonce?: (() => bigint) | undefined;
}

/** Which of the intent's two accounts an address is. */
export type IntentSource = 'origin' | 'destination';

/** A balance the owner may recover now, with its USD value when the price is known. */
export interface RecoverableBalance extends Omit<AddressBalance, 'holder'> {
  intentAddress: Address;
  source: IntentSource;
  /**
   * The intent's own deposit at an account that could still execute, whose intent the service will not run
   * (never committed, or failed): the recovery cancels the intent on-chain first (IntentAccount.recover).
   */
  cancelIntent: boolean;
}

/**
 * The signed recovery as it travels between PrepareIntentRecovery and BuildIntentRecoveryTransaction: the
 * EIP-712 message (uint256 members as decimal strings) and where it applies.
 */
export interface RecoveryPayload {
  kind: typeof RECOVERY_PAYLOAD_KIND;
  chainId: number;
  intentAddress: Address;
  token: Address;
  recipient: Address;
  cancelIntent: boolean;
  maxFee: string;
  nonce: string;
  deadline: string;
}

export const RECOVERY_PAYLOAD_KIND = 'switchyard.recovery.v1';

export interface PrepareRecoveryInput {
  intentId: string;
  intentAddress?: string | undefined;
  refundToAddress?: string | undefined;
  tokenAddress?: string | undefined;
}

export interface PreparedRecovery {
  intentId: string;
  intentAddress: Address;
  chainId: number;
  intentSource: IntentSource;
  /** Every balance the owner may recover now, on every configured chain (the payload covers the first). */
  recoverable: RecoverableBalance[];
  payload: RecoveryPayload;
  /** EIP-712 typed data as JSON (uint256 as decimal strings), ready for eth_signTypedData_v4. */
  typedData: Record<string, unknown>;
  payloadHash: Hex;
}

export interface SignedRecoveryInput {
  intentId: string;
  payload: unknown;
  signature: string;
  intentAddress: string;
  refundToAddress?: string | undefined;
}

export interface RecoveryTransaction {
  to: Address;
  data: Hex;
  value: bigint;
  chainId: number;
  intentAddress: Address;
  requiresDeploy: boolean;
  payloadHash: Hex;
}

export interface RelayedRecovery {
  intentId: string;
  chainId: number;
  intentAddress: Address;
  transactionHash: Hex;
  /** What the relayer kept, in the recovered token. */
  fee: bigint;
  transactionStatus: 'SUCCEEDED' | 'REVERTED';
}

export interface RetryInput {
  intentId: string;
  depositTransactionHash: string;
}
