/**
 * Generated routes: the quoted numbers and destination behaviour of one cross-chain route (fast-check
 * arbitrary), and the origin/destination intents the server would build from them for a given owner.
 */
import fc from 'fast-check';
import { type Address, encodeFunctionData, erc20Abi, type Hex, keccak256, toHex } from 'viem';
import { accruingVaultAbi, revertingTargetAbi } from '../../../src/contracts/abis.generated.ts';
import { computeOrderId } from '../../../src/contracts/order-id.ts';
import {
  ERC20_AMOUNT_OFFSET,
  FillKind,
  type Intent,
  type IntentCall,
  IntentMode,
  type OrderData,
} from '../../../src/contracts/types.ts';
import { accountAddress, DEST_MIN_GAS, lockCalls, type Route, transferCall } from '../route.ts';
import { addressFromLabel, USDC, type World } from './world.ts';

const ZERO: Address = '0x0000000000000000000000000000000000000000';
/** Byte offset of `assets` in `deposit(assets, receiver)` calldata. */
const VAULT_ASSETS_OFFSET = 4;
/** Smallest and largest generated deposit: 2 USDC (room for a fee and an output) to 1,000 USDC. */
const MIN_DEPOSIT = 2n * USDC;
const MAX_DEPOSIT = 1_000n * USDC;
/** Execute windows from 10 minutes to 2 hours: long enough to act, short enough for warps to cross them. */
const MIN_WINDOW_SECONDS = 600;
const MAX_WINDOW_SECONDS = 7_200;

/** What the destination intent does with the filled amount. */
export type DestKind = 'transfer' | 'vault' | 'failing';

export interface RouteSpec {
  depositAmount: bigint;
  /** Per mille of the deposit taken as the service fee (0–100 ‰). */
  feePermille: number;
  /** Per mille of (deposit − fee) delivered on B (1–1000 ‰); the rest is the solver's margin. */
  outputPermille: number;
  destKind: DestKind;
  windowSeconds: number;
  salt: Hex;
}

export const routeSpecArb: fc.Arbitrary<RouteSpec> = fc.record({
  depositAmount: fc.bigInt({ min: MIN_DEPOSIT, max: MAX_DEPOSIT }),
  feePermille: fc.integer({ min: 0, max: 100 }),
  outputPermille: fc.integer({ min: 1, max: 1_000 }),
  destKind: fc.constantFrom<DestKind>('transfer', 'transfer', 'vault', 'failing'),
  windowSeconds: fc.integer({ min: MIN_WINDOW_SECONDS, max: MAX_WINDOW_SECONDS }),
  salt: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => toHex(bytes)),
});

/** One route as built for the chains: both intents, their addresses, the order and its id. */
export interface PropertyRoute extends Omit<Route, 'orderTemplate'> {
  index: number;
  owner: Address;
  recipient: Address;
  depositAmount: bigint;
  feeAmount: bigint;
  inputAmount: bigint;
  outputAmount: bigint;
  destKind: DestKind;
  deadline: bigint;
  /** address(O): on A the real account, on B a wrong-chain address that can only refund. */
  originAccount: Address;
  /** The order `open` records (depositor and inputAmount are known in advance: surplus is swept first). */
  order: OrderData;
  orderId: Hex;
}

export function buildPropertyRoute(world: World, index: number, spec: RouteSpec, now: bigint): PropertyRoute {
  const { a, b } = world;
  const owner = world.owners[index]!;
  const feeAmount = (spec.depositAmount * BigInt(spec.feePermille)) / 1_000n;
  const inputAmount = spec.depositAmount - feeAmount;
  const outputAmount = max1((inputAmount * BigInt(spec.outputPermille)) / 1_000n);
  const deadline = now + BigInt(spec.windowSeconds);
  const recipient = addressFromLabel(`recipient-${index}-${spec.salt}`);
  const dest: Intent = {
    mode: IntentMode.Destination,
    chainId: BigInt(b.chain.chainId),
    owner,
    refundRecipient: owner,
    executor: ZERO,
    deadline,
    salt: spec.salt,
    depositToken: b.chain.tokens.usdc,
    depositAmount: outputAmount,
    minGas: DEST_MIN_GAS,
    calls: destCalls(world, spec, recipient, outputAmount),
    sweepTokens: [],
  };
  const destAccount = accountAddress(b.chain, dest);
  const template: OrderData = {
    depositor: ZERO,
    refundRecipient: owner,
    inputToken: a.chain.tokens.usdc,
    inputAmount: 0n,
    destChainId: BigInt(b.chain.chainId),
    destSettler: b.chain.contracts.destinationSettler,
    outputToken: b.chain.tokens.usdc,
    outputAmount,
    recipient: destAccount.address,
    fillDeadline: deadline,
    nonce: keccak256(spec.salt),
  };
  const origin = originIntent(world, owner, spec, deadline, feeAmount, template);
  const originAccount = accountAddress(a.chain, origin);
  const order = { ...template, depositor: originAccount.address, inputAmount };
  return {
    index,
    owner,
    recipient,
    depositAmount: spec.depositAmount,
    feeAmount,
    inputAmount,
    outputAmount,
    destKind: spec.destKind,
    deadline,
    origin,
    dest,
    originHash: originAccount.hash,
    destHash: destAccount.hash,
    originAccount: originAccount.address,
    destAccount: destAccount.address,
    order,
    orderId: computeOrderId(order, BigInt(a.chain.chainId), a.chain.contracts.originSettler),
  };
}

function max1(x: bigint): bigint {
  return x > 0n ? x : 1n;
}

/** Fee transfer, approve(settler, own balance), open(order) with run-time depositor and input amount. */
function originIntent(
  world: World,
  owner: Address,
  spec: RouteSpec,
  deadline: bigint,
  feeAmount: bigint,
  template: OrderData,
): Intent {
  const { chain } = world.a;
  const usdc = chain.tokens.usdc;
  return {
    mode: IntentMode.Origin,
    chainId: BigInt(chain.chainId),
    owner,
    refundRecipient: owner,
    executor: chain.accounts.relayer.address,
    deadline,
    salt: spec.salt,
    depositToken: usdc,
    depositAmount: spec.depositAmount,
    minGas: 0n,
    calls: [
      transferCall(usdc, chain.accounts.feeCollector.address, feeAmount),
      ...lockCalls(usdc, chain.contracts.originSettler, template),
    ],
    sweepTokens: [],
  };
}

function destCalls(world: World, spec: RouteSpec, recipient: Address, outputAmount: bigint): IntentCall[] {
  const usdc = world.b.chain.tokens.usdc;
  if (spec.destKind === 'transfer') return [transferCall(usdc, recipient, outputAmount)];
  if (spec.destKind === 'failing') {
    const data = encodeFunctionData({ abi: revertingTargetAbi, functionName: 'fail', args: [7n] });
    return [{ target: world.revertingTarget, value: 0n, data, fills: [] }];
  }
  const ownBalance = (offset: number) => ({ kind: FillKind.OwnBalance, token: usdc, offset }) as const;
  return [
    {
      target: usdc,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [world.vault, 0n] }),
      fills: [ownBalance(ERC20_AMOUNT_OFFSET)],
    },
    {
      target: world.vault,
      value: 0n,
      data: encodeFunctionData({ abi: accruingVaultAbi, functionName: 'deposit', args: [0n, recipient] }),
      fills: [ownBalance(VAULT_ASSETS_OFFSET)],
    },
  ];
}
