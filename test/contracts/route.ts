/**
 * Builds the intents of one cross-chain route the way the server will: a destination intent D on chain B
 * (its calls, e.g. a transfer to the final recipient) and an origin intent O on chain A whose calls pay the
 * service fee, approve and open a settlement order whose recipient is address(D). Reused by the threat and
 * property tests.
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, keccak256, toHex } from 'viem';
import { encodeOpen } from '../../src/contracts/calldata.ts';
import { hashIntent } from '../../src/contracts/hash-intent.ts';
import { predictIntentAddress } from '../../src/contracts/predict-intent-address.ts';
import {
  ERC20_AMOUNT_OFFSET,
  FillKind,
  type Intent,
  type IntentCall,
  IntentMode,
  OPEN_INPUT_AMOUNT_OFFSET,
  type OrderData,
} from '../../src/contracts/types.ts';
import type { TestChain } from '../harness/chain.ts';

const ZERO: Address = '0x0000000000000000000000000000000000000000';
/** One USDC in base units (6 decimals). */
export const USDC = 1_000_000n;
/** The quote most route tests use: 100 USDC deposited, a 0.5 USDC service fee, 99 USDC delivered. */
export const DEPOSIT = 100n * USDC;
export const FEE = USDC / 2n;
export const OUTPUT = 99n * USDC;
/** Execute window of test intents. */
export const INTENT_WINDOW_SECONDS = 3_600n;
/** Gas the destination account must have left before its calls: plenty for a transfer or a vault deposit. */
export const DEST_MIN_GAS = 300_000n;
/** Byte offset of the `depositor` word in `open(OrderData)` calldata (the first struct word). */
const OPEN_DEPOSITOR_OFFSET = 4;

export interface RouteParams {
  origin: TestChain;
  dest: TestChain;
  /** Committed deposit on the origin (USDC base units). */
  depositAmount: bigint;
  /** Service fee paid from the deposit to the fee collector. */
  feeAmount: bigint;
  /** What the recipient gets on the destination. */
  outputAmount: bigint;
  /** Destination calls; defaults to a USDC transfer of outputAmount to `recipient`. */
  destCalls?: IntentCall[];
  recipient: Address;
  /** Unix seconds; defaults to now + INTENT_WINDOW_SECONDS on the origin. */
  deadline?: bigint;
  salt?: Hex;
}

export interface Route {
  origin: Intent;
  dest: Intent;
  originHash: Hex;
  destHash: Hex;
  originAccount: Address;
  destAccount: Address;
  /** The order as committed (depositor and inputAmount are filled at run time: see `openedOrder`). */
  orderTemplate: OrderData;
}

export function transferCall(token: Address, to: Address, amount: bigint): IntentCall {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
  return { target: token, value: 0n, data, fills: [] };
}

/**
 * The lock of an origin intent: `approve(settler, own balance)` then `open(template)`, with the depositor
 * (the account's own address) and the input amount (its own balance of `token`) written at run time.
 */
export function lockCalls(token: Address, settler: Address, template: OrderData): IntentCall[] {
  return [
    {
      target: token,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [settler, 0n] }),
      fills: [{ kind: FillKind.OwnBalance, token, offset: ERC20_AMOUNT_OFFSET }],
    },
    {
      target: settler,
      value: 0n,
      data: encodeOpen(template),
      fills: [
        { kind: FillKind.OwnAddress, token: ZERO, offset: OPEN_DEPOSITOR_OFFSET },
        { kind: FillKind.OwnBalance, token, offset: OPEN_INPUT_AMOUNT_OFFSET },
      ],
    },
  ];
}

export function accountAddress(chain: TestChain, intent: Intent): { hash: Hex; address: Address } {
  const { intentFactory: factory, intentAccountImplementation: implementation } = chain.contracts;
  const hash = hashIntent(intent, factory);
  return { hash, address: predictIntentAddress({ factory, implementation, intentHash: hash }) };
}

export async function buildRoute(p: RouteParams): Promise<Route> {
  const { origin, dest } = p;
  const user = origin.accounts.user.address;
  const deadline = p.deadline ?? (await origin.now()) + INTENT_WINDOW_SECONDS;
  const salt = p.salt ?? keccak256(toHex(`route-${Math.random()}`));

  const destIntent: Intent = {
    mode: IntentMode.Destination,
    chainId: BigInt(dest.chainId),
    owner: user,
    refundRecipient: user,
    executor: ZERO,
    deadline,
    salt,
    depositToken: dest.tokens.usdc,
    depositAmount: p.outputAmount,
    minGas: DEST_MIN_GAS,
    calls: p.destCalls ?? [transferCall(dest.tokens.usdc, p.recipient, p.outputAmount)],
    sweepTokens: [],
  };
  const destAccount = accountAddress(dest, destIntent);

  const orderTemplate: OrderData = {
    depositor: ZERO,
    refundRecipient: user,
    inputToken: origin.tokens.usdc,
    inputAmount: 0n,
    destChainId: BigInt(dest.chainId),
    destSettler: dest.contracts.destinationSettler,
    outputToken: dest.tokens.usdc,
    outputAmount: p.outputAmount,
    recipient: destAccount.address,
    fillDeadline: deadline,
    nonce: salt,
  };
  const usdc = origin.tokens.usdc;
  const originIntent: Intent = {
    mode: IntentMode.Origin,
    chainId: BigInt(origin.chainId),
    owner: user,
    refundRecipient: user,
    executor: origin.accounts.relayer.address,
    deadline,
    salt,
    depositToken: usdc,
    depositAmount: p.depositAmount,
    minGas: 0n,
    calls: [
      transferCall(usdc, origin.accounts.feeCollector.address, p.feeAmount),
      ...lockCalls(usdc, origin.contracts.originSettler, orderTemplate),
    ],
    sweepTokens: [],
  };
  const originAccount = accountAddress(origin, originIntent);
  return {
    origin: originIntent,
    dest: destIntent,
    originHash: originAccount.hash,
    destHash: destAccount.hash,
    originAccount: originAccount.address,
    destAccount: destAccount.address,
    orderTemplate,
  };
}

/** The order as `open` recorded it: the template with the run-time depositor and input amount. */
export function openedOrder(route: Route, inputAmount: bigint): OrderData {
  return { ...route.orderTemplate, depositor: route.originAccount, inputAmount };
}
