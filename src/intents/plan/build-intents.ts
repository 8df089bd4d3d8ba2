/**
 * The two intents of a plan. The destination intent is built first: the origin's `open` call commits to its
 * address (the order's recipient), which commits to its calls, so the one deposit address commits to the
 * whole route.
 */
import { type Address, erc20Abi, type Hex, isAddressEqual, zeroAddress } from 'viem';
import { intentFactoryAbi, originSettlerAbi } from '../../contracts/abis.generated.ts';
import { hashIntentFromCalldata } from '../../contracts/hash-intent.ts';
import { predictIntentAddress } from '../../contracts/predict-intent-address.ts';
import {
  ERC20_AMOUNT_OFFSET,
  FillKind,
  type Intent,
  type IntentCall,
  IntentMode,
  type OrderData,
} from '../../contracts/types.ts';
import { validateIntent } from '../../contracts/validate-intent.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { createCalldataEncoder } from '../../providers/calldata-encoder.ts';
import type { LegRecipient, SwapRouter, WrapProvider } from '../../providers/types.ts';
import { vaultAbi } from '../../yield/index.ts';
import { destinationCallCalls } from './destination-call.ts';
import type { LegAmounts } from './quote-amounts.ts';
import type { RouteShape } from './resolve-route.ts';
import { swapLimits } from './swap-routes.ts';
import type { ExecutionPlan, PlannedIntent } from './types.ts';

/** Byte offset of the `depositor` word in `open(OrderData)` calldata (the first struct word). */
const OPEN_DEPOSITOR_OFFSET = 4;
/** Byte offsets of `receiver` and `owner` in ERC-4626 `redeem(shares, receiver, owner)` calldata. */
const REDEEM_RECEIVER_OFFSET = 4 + 32;
const REDEEM_OWNER_OFFSET = 4 + 2 * 32;

// The calldata a quote builds, each encoder compiled once (src/providers/calldata-encoder.ts says why).
const encodeExecute = createCalldataEncoder(intentFactoryAbi, 'deployIfNeededAndExecute');
const encodeOpen = createCalldataEncoder(originSettlerAbi, 'open');
const encodeTransfer = createCalldataEncoder(erc20Abi, 'transfer');
const encodeApprove = createCalldataEncoder(erc20Abi, 'approve');
const encodeRedeem = createCalldataEncoder(vaultAbi, 'redeem');

export interface IntentContext {
  shape: RouteShape;
  legs: LegAmounts;
  swap: SwapRouter;
  weth: WrapProvider;
  owner: Address;
  relayer: Address;
  feeCollector: Address;
  depositAmount: bigint;
  collectorFee: bigint;
  salt: Hex;
  originDeadline: bigint;
  fillDeadline: bigint;
  destinationDeadline: bigint;
  destinationMinGas: bigint;
  /** The amount the caller's calldata may carry literally (see destination-call.ts). */
  quotedDestinationAmount: bigint;
  /** WITHDRAW: the deposit is these shares, redeemed into the origin token by the first call. */
  vaultExit?: ExecutionPlan['vaultExit'];
}

export function planIntent(chain: ChainConfig, intent: Intent): PlannedIntent {
  validateIntent(intent);
  const { intentFactory: factory, intentAccountImplementation: implementation } = chain.contracts;
  // One encoding of the intent serves both the hash and the operator's calldata (the wire's metaTxn).
  const executeCalldata = encodeExecute([intent, '0x']);
  const hash = hashIntentFromCalldata(executeCalldata, factory);
  const address = predictIntentAddress({ factory, implementation, intentHash: hash });
  return { intent, hash, address, executeCalldata };
}

export function buildDestinationIntent(ctx: IntentContext): PlannedIntent {
  const { shape, legs } = ctx;
  const bridged = shape.bridge!.outputToken.address;
  const intent: Intent = {
    mode: IntentMode.Destination,
    chainId: BigInt(shape.destination.chainId),
    owner: ctx.owner,
    refundRecipient: ctx.owner,
    executor: zeroAddress,
    deadline: ctx.destinationDeadline,
    salt: ctx.salt,
    depositToken: bridged,
    depositAmount: legs.bridge!.outputAmount,
    minGas: ctx.destinationMinGas,
    calls: finalStage(ctx, shape.destination, bridged, legs.destinationSwap, legs.bridge!.outputAmount),
    sweepTokens: sweepList(bridged, [workOut(ctx)]),
  };
  return planIntent(shape.destination, intent);
}

export function buildOriginIntent(
  ctx: IntentContext,
  destination?: PlannedIntent,
): {
  origin: PlannedIntent;
  order?: OrderData;
} {
  const { shape, legs, vaultExit } = ctx;
  const chain = shape.origin;
  // The token the route starts from; a WITHDRAW deposits shares and redeems them into it first.
  const depositToken = shape.originToken.address;
  const calls: IntentCall[] = vaultExit ? [redeemCall(vaultExit.vault, vaultExit.shares)] : [];
  if (ctx.collectorFee > 0n) calls.push(send(depositToken, ctx.feeCollector, ctx.collectorFee));
  const weth = chain.contracts.weth ?? zeroAddress;
  if (shape.wrapOnOrigin) calls.push(ctx.weth.wrapCall(chain, ctx.depositAmount - ctx.collectorFee));
  const held = shape.wrapOnOrigin ? weth : depositToken;
  let order: OrderData | undefined;
  if (shape.crossChain) {
    if (legs.originSwap) calls.push(...swapCalls(ctx, 'originSwap', { kind: 'self' }, false));
    order = orderFor(ctx, destination!);
    calls.push(...lockCalls(chain, order));
  } else {
    calls.push(...finalStage(ctx, chain, held, legs.originSwap, ctx.depositAmount - ctx.collectorFee));
  }
  const sweeps = [shape.wrapOnOrigin ? weth : undefined, shape.bridge?.inputToken.address, workOut(ctx)];
  const intent: Intent = {
    mode: IntentMode.Origin,
    chainId: BigInt(chain.chainId),
    owner: ctx.owner,
    refundRecipient: ctx.owner,
    executor: ctx.relayer,
    deadline: ctx.originDeadline,
    salt: ctx.salt,
    depositToken: vaultExit?.vault ?? depositToken,
    depositAmount: vaultExit?.shares ?? ctx.depositAmount,
    minGas: 0n,
    calls,
    sweepTokens: sweepList(vaultExit?.vault ?? depositToken, [
      vaultExit ? depositToken : undefined,
      ...(shape.crossChain ? sweeps.slice(0, 2) : sweeps),
    ]),
  };
  const origin = planIntent(chain, intent);
  return order ? { origin, order: { ...order, depositor: origin.address } } : { origin };
}

/** The ERC-20 the route ends in before delivery (WETH for native out), undefined for native→native. */
function workOut(ctx: IntentContext): Address | undefined {
  const out = ctx.shape.destinationToken.address;
  if (!isAddressEqual(out, zeroAddress)) return out;
  return ctx.shape.unwrapAtEnd || ctx.shape.nativeOutSwap ? ctx.shape.destination.contracts.weth : undefined;
}

function sweepList(depositToken: Address, tokens: (Address | undefined)[]): Address[] {
  const out: Address[] = [];
  for (const token of tokens) {
    if (!token || isAddressEqual(token, zeroAddress) || isAddressEqual(token, depositToken)) continue;
    if (!out.some((t) => isAddressEqual(t, token))) out.push(token);
  }
  return out;
}

function orderFor(ctx: IntentContext, destination: PlannedIntent): OrderData {
  const { shape, legs } = ctx;
  return {
    depositor: zeroAddress,
    refundRecipient: ctx.owner,
    inputToken: shape.bridge!.inputToken.address,
    inputAmount: legs.bridge!.inputAmount,
    destChainId: BigInt(shape.destination.chainId),
    destSettler: shape.destination.contracts.destinationSettler,
    outputToken: shape.bridge!.outputToken.address,
    outputAmount: legs.bridge!.outputAmount,
    recipient: destination.address,
    fillDeadline: ctx.fillDeadline,
    nonce: ctx.salt,
  };
}

/** approve(settler, inputAmount) + open(order) with the depositor filled in as the account itself. */
function lockCalls(chain: ChainConfig, order: OrderData): IntentCall[] {
  const settler = chain.contracts.originSettler;
  const approve = encodeApprove([settler, order.inputAmount]);
  const depositor = { kind: FillKind.OwnAddress, token: zeroAddress, offset: OPEN_DEPOSITOR_OFFSET } as const;
  return [
    { target: order.inputToken, value: 0n, data: approve, fills: [] },
    { target: settler, value: 0n, data: encodeOpen([order]), fills: [depositor] },
  ];
}

function swapCalls(
  ctx: IntentContext,
  which: 'originSwap' | 'destinationSwap',
  recipient: LegRecipient,
  nativeOut: boolean,
): IntentCall[] {
  const quote = ctx.legs[which]!;
  const deadline = which === 'originSwap' ? ctx.originDeadline : ctx.destinationDeadline;
  const limits = swapLimits(which, ctx.legs, ctx.shape);
  return ctx.swap.buildCalls({ quote, ...limits, recipient, nativeOut, deadline });
}

/**
 * The last stage on the chain where the value ends: an optional swap, then delivery — a contract call, an
 * unwrap and native send, or a transfer. `held` is the token the account holds; `known` its exact amount
 * when no swap ran (strict deposits and exact fills make it exact).
 */
function finalStage(
  ctx: IntentContext,
  chain: ChainConfig,
  held: Address,
  swap: LegAmounts['originSwap'],
  known: bigint,
): IntentCall[] {
  const { shape, legs } = ctx;
  const out = shape.destinationToken.address;
  const toSelf = shape.call !== undefined || shape.unwrapAtEnd;
  const recipient: LegRecipient = toSelf ? { kind: 'self' } : { kind: 'address', address: shape.recipient };
  const calls: IntentCall[] = [];
  let delivered = held;
  if (swap) {
    const which = swap === legs.originSwap ? 'originSwap' : 'destinationSwap';
    calls.push(...swapCalls(ctx, which, recipient, shape.nativeOutSwap));
    if (!toSelf) return calls;
    delivered = swap.tokenOut;
  }
  if (shape.call) {
    const call = shape.call;
    return [
      ...calls,
      ...destinationCallCalls({ token: delivered, ...call, quotedAmount: ctx.quotedDestinationAmount }),
    ];
  }
  if (shape.unwrapAtEnd) return [...calls, ctx.weth.unwrapCall(chain), nativeSend(shape.recipient, known)];
  if (isAddressEqual(out, zeroAddress)) return [...calls, nativeSend(shape.recipient, known)];
  const ownBalance = { kind: FillKind.OwnBalance, token: delivered, offset: ERC20_AMOUNT_OFFSET } as const;
  const transfer = encodeTransfer([shape.recipient, 0n]);
  return [...calls, { target: delivered, value: 0n, data: transfer, fills: [ownBalance] }];
}

/** redeem(shares, the account, the account): the deposited shares become the vault's asset, held by the account. */
function redeemCall(vault: Address, shares: bigint): IntentCall {
  const self = (offset: number) => ({ kind: FillKind.OwnAddress, token: zeroAddress, offset }) as const;
  return {
    target: vault,
    value: 0n,
    data: encodeRedeem([shares, zeroAddress, zeroAddress]),
    fills: [self(REDEEM_RECEIVER_OFFSET), self(REDEEM_OWNER_OFFSET)],
  };
}

function send(token: Address, to: Address, amount: bigint): IntentCall {
  if (isAddressEqual(token, zeroAddress)) return nativeSend(to, amount);
  return { target: token, value: 0n, data: encodeTransfer([to, amount]), fills: [] };
}

function nativeSend(to: Address, amount: bigint): IntentCall {
  return { target: to, value: amount, data: '0x', fills: [] };
}
