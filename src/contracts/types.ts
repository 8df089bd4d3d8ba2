/**
 * TypeScript shapes of the structs Switchyard's contracts commit to. Amounts, chain ids and timestamps are
 * bigint (uint256 on-chain); field order and meaning follow contracts/interfaces/IntentTypes.sol.
 */
import type { Address, Hex } from 'viem';

/** Origin: a failing call reverts everything. Destination: a failing call refunds the balances. */
export const IntentMode = { Origin: 0, Destination: 1 } as const;
export type IntentMode = (typeof IntentMode)[keyof typeof IntentMode];

/** The only run-time fills: the account's own balance of a token (zero address = native), or its own address. */
export const FillKind = { OwnBalance: 1, OwnAddress: 2 } as const;
export type FillKind = (typeof FillKind)[keyof typeof FillKind];

/** A 32-byte word written into a call's calldata at byte `offset` (≥ 4, and offset + 32 ≤ data length). */
export interface Fill {
  kind: FillKind;
  /** The token whose balance is written (OwnBalance); the zero address for OwnAddress or native. */
  token: Address;
  offset: number;
}

export interface IntentCall {
  target: Address;
  value: bigint;
  data: Hex;
  fills: readonly Fill[];
}

export interface Intent {
  mode: IntentMode;
  chainId: bigint;
  owner: Address;
  refundRecipient: Address;
  /** Zero address: anyone may execute. */
  executor: Address;
  /** Unix seconds; execute must happen strictly before it. */
  deadline: bigint;
  salt: Hex;
  /** Zero address: native currency. */
  depositToken: Address;
  depositAmount: bigint;
  /** Destination mode: gas that must be left before the calls run. */
  minGas: bigint;
  calls: readonly IntentCall[];
  sweepTokens: readonly Address[];
}

/**
 * An owner-signed recovery (IntentAccount.recover): the account's whole balance of `token` goes to
 * `recipient`, less at most `maxFee` kept by the transaction's sender.
 */
export interface Recovery {
  /** Zero address: native currency. */
  token: Address;
  recipient: Address;
  /** Cancels the intent first: needed to recover the deposit token while the intent could still execute. */
  cancelIntent: boolean;
  maxFee: bigint;
  /** Any number not used on this account before (random 256-bit in Switchyard). */
  nonce: bigint;
  /** Unix seconds; the signature is void from this block timestamp on. */
  deadline: bigint;
}

/** A lock → fill → settle order. Every field is static, so each sits at a fixed word of `open` calldata. */
export interface OrderData {
  depositor: Address;
  refundRecipient: Address;
  inputToken: Address;
  inputAmount: bigint;
  destChainId: bigint;
  destSettler: Address;
  outputToken: Address;
  outputAmount: bigint;
  recipient: Address;
  fillDeadline: bigint;
  nonce: Hex;
}

/** Byte offset of `inputAmount` in `OriginSettler.open(OrderData)` calldata: selector + 3 words. */
export const OPEN_INPUT_AMOUNT_OFFSET = 4 + 3 * 32;
/** Byte offset of `amount` in `approve(spender, amount)` / `transfer(to, amount)` calldata. */
export const ERC20_AMOUNT_OFFSET = 4 + 32;

/** IntentAccount.State */
export const AccountState = { None: 0, Executed: 1, Cancelled: 2 } as const;
/** OriginSettler.Status */
export const OrderStatus = { None: 0, Open: 1, Settled: 2, Refunded: 3 } as const;
/** DestinationSettler.FillStatus */
export const FillStatus = { Unfilled: 0, Filled: 1 } as const;
