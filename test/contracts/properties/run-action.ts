/**
 * Runs one action against the chains: the model predicts success (the transaction is sent and the model
 * applies its effects) or the exact custom error with its args (the call is simulated and must revert so).
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { destinationSettlerAbi } from '../../../src/contracts/abis.generated.ts';
import { fillAttestationTypedData } from '../../../src/contracts/attestation.ts';
import {
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRefund,
  encodeFill,
  encodeFillProof,
  encodeOrderRefund,
  encodeSettle,
} from '../../../src/contracts/calldata.ts';
import { AccountState, OrderStatus } from '../../../src/contracts/types.ts';
import type { Action, Boundary, RefundWhere, TokenName } from './actions.ts';
import type { ChainKey, RouteModel } from './model.ts';
import { expectFailure, nextTimestamp, type RunContext, sendOk, sideOf, walletOf } from './run-context.ts';
import { DAI_PER_USDC_UNIT, setLatest } from './world.ts';

export async function runAction(ctx: RunContext, action: Action): Promise<void> {
  switch (action.kind) {
    case 'deposit':
      return deposit(ctx, action);
    case 'executeOrigin':
      return executeOrigin(ctx, action);
    case 'executeOriginWrongChain':
      return executeOriginWrongChain(ctx, action);
    case 'fill':
      return fill(ctx, action);
    case 'executeDest':
      return executeDest(ctx, action);
    case 'settle':
      return settle(ctx, action);
    case 'orderRefund':
      return orderRefund(ctx, action);
    case 'accountRefund':
      return accountRefund(ctx, action);
    case 'progress':
      return runAction(ctx, resolveAction(ctx, action));
    case 'warpSeconds':
      return warp(
        ctx,
        action.chains,
        async (chain) => (await sideOf(ctx, chain).chain.now()) + BigInt(action.seconds),
      );
    case 'warpTo': {
      const target = boundaryTime(ctx, ctx.model.routes[action.route]!, action.boundary);
      // The next transaction runs one second after the latest block: land it exactly on the boundary.
      return warp(ctx, action.chains, async () => target - 1n);
    }
  }
}

/** The concrete action: `progress` becomes the route's next honest step, the rest stay as they are. */
export function resolveAction(ctx: RunContext, action: Action): Action {
  return action.kind === 'progress' ? nextStep(ctx.model.routes[action.route]!, action.route) : action;
}

/** What the honest parties would do next for a route, given the model's state. */
function nextStep(rm: RouteModel, route: 0 | 1): Action {
  const r = rm.route;
  if (rm.originState === AccountState.None) {
    return rm.originDeposited < r.depositAmount
      ? { kind: 'deposit', route, variant: 'exact', permille: 1 }
      : { kind: 'executeOrigin', route, actor: 'relayer' };
  }
  if (!rm.fill) return { kind: 'fill', route, actor: 'solver', repayTo: 'solver' };
  if (rm.destState === AccountState.None) return { kind: 'executeDest', route, actor: 'relayer' };
  return { kind: 'settle', route, actor: 'relayer', proof: 'attested' };
}

type Of<K extends Action['kind']> = Extract<Action, { kind: K }>;

async function deposit(ctx: RunContext, action: Of<'deposit'>): Promise<void> {
  const rm = ctx.model.routes[action.route]!;
  const r = rm.route;
  const k = max1((r.depositAmount * BigInt(action.permille)) / 1_000n);
  const dust = BigInt(action.permille);
  const plan: Record<typeof action.variant, [ChainKey, TokenName, 'owner' | 'stranger', Address, bigint]> = {
    exact: ['a', 'usdc', 'owner', r.originAccount, r.depositAmount],
    under: ['a', 'usdc', 'owner', r.originAccount, r.depositAmount - k],
    over: ['a', 'usdc', 'owner', r.originAccount, r.depositAmount + k],
    wrongToken: ['a', 'dai', 'owner', r.originAccount, r.depositAmount * DAI_PER_USDC_UNIT],
    dust: ['a', 'usdc', 'stranger', r.originAccount, dust],
    wrongChain: ['b', 'usdc', 'owner', r.originAccount, r.depositAmount],
    lateToDest: ['b', 'usdc', 'stranger', r.destAccount, dust],
  };
  const [chain, tokenName, sender, to, amount] = plan[action.variant];
  const token = ctx.model.tokens[chain][tokenName]!;
  const wallet = walletOf(ctx, chain, sender, action.route);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
  await sendOk(ctx, chain, wallet, { to: token, data });
  ctx.model.move(chain, token, wallet.account.address, to, amount);
  if (chain === 'a' && tokenName === 'usdc' && to === r.originAccount) rm.originDeposited += amount;
}

async function executeOrigin(ctx: RunContext, action: Of<'executeOrigin'>): Promise<void> {
  const { model, world } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const wallet = walletOf(ctx, 'a', action.actor, action.route);
  const tx = { to: world.a.chain.contracts.intentFactory, data: encodeDeployIfNeededAndExecute(r.origin) };
  const now = await nextTimestamp(ctx, 'a');
  const usdc = model.tokens.a.usdc!;
  const balance = model.balance('a', usdc, r.originAccount);
  const relayer = world.a.chain.accounts.relayer.address;
  if (now >= r.deadline) return expectFailure(ctx, 'a', wallet, tx, 'Expired', [r.deadline, now]);
  if (rm.originState !== AccountState.None) {
    return expectFailure(ctx, 'a', wallet, tx, 'InvalidState', [AccountState.None, rm.originState]);
  }
  if (wallet.account.address !== relayer) {
    return expectFailure(ctx, 'a', wallet, tx, 'UnauthorizedExecutor', [relayer, wallet.account.address]);
  }
  if (balance < r.depositAmount) {
    return expectFailure(ctx, 'a', wallet, tx, 'InsufficientDeposit', [r.depositAmount, balance]);
  }
  await sendOk(ctx, 'a', wallet, tx);
  model.move('a', usdc, r.originAccount, r.owner, balance - r.depositAmount);
  model.move('a', usdc, r.originAccount, world.a.chain.accounts.feeCollector.address, r.feeAmount);
  model.move('a', usdc, r.originAccount, world.a.chain.contracts.originSettler, r.inputAmount);
  rm.originState = AccountState.Executed;
  rm.deployed.originA = true;
  model.setOrderStatus(rm, OrderStatus.Open);
}

async function executeOriginWrongChain(
  ctx: RunContext,
  action: Of<'executeOriginWrongChain'>,
): Promise<void> {
  const r = ctx.model.routes[action.route]!.route;
  const wallet = walletOf(ctx, 'b', action.actor, action.route);
  const tx = {
    to: ctx.world.b.chain.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(r.origin),
  };
  const args = [BigInt(ctx.world.a.chain.chainId), BigInt(ctx.world.b.chain.chainId)];
  return expectFailure(ctx, 'b', wallet, tx, 'WrongChain', args);
}

async function fill(ctx: RunContext, action: Of<'fill'>): Promise<void> {
  const { model, world } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const wallet = walletOf(ctx, 'b', action.actor, action.route);
  const repaymentAddr = action.repayTo === 'solver' ? world.b.chain.accounts.solver.address : world.treasury;
  const originChainId = BigInt(world.a.chain.chainId);
  const settler = world.b.chain.contracts.destinationSettler;
  const tx = {
    to: settler,
    data: encodeFill(r.order, originChainId, world.a.chain.contracts.originSettler, repaymentAddr),
  };
  const now = await nextTimestamp(ctx, 'b');
  if (now > r.order.fillDeadline) {
    return expectFailure(ctx, 'b', wallet, tx, 'FillDeadlinePassed', [r.order.fillDeadline, now]);
  }
  if (rm.fill) return expectFailure(ctx, 'b', wallet, tx, 'AlreadyFilled', [r.orderId, rm.fill.filler]);
  if (action.actor === 'stranger') {
    // The stranger never approved the settler: the token refuses the transferFrom.
    return expectFailure(ctx, 'b', wallet, tx, 'ERC20InsufficientAllowance', [settler, 0n, r.outputAmount]);
  }
  await sendOk(ctx, 'b', wallet, tx);
  model.move('b', model.tokens.b.usdc!, wallet.account.address, r.destAccount, r.outputAmount);
  rm.fill = { filler: wallet.account.address, repaymentAddr };
}

async function executeDest(ctx: RunContext, action: Of<'executeDest'>): Promise<void> {
  const { model, world } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const wallet = walletOf(ctx, 'b', action.actor, action.route);
  const tx = { to: world.b.chain.contracts.intentFactory, data: encodeDeployIfNeededAndExecute(r.dest) };
  const now = await nextTimestamp(ctx, 'b');
  const usdc = model.tokens.b.usdc!;
  const balance = model.balance('b', usdc, r.destAccount);
  if (now >= r.deadline) return expectFailure(ctx, 'b', wallet, tx, 'Expired', [r.deadline, now]);
  if (rm.destState !== AccountState.None) {
    return expectFailure(ctx, 'b', wallet, tx, 'InvalidState', [AccountState.None, rm.destState]);
  }
  if (balance < r.outputAmount) {
    return expectFailure(ctx, 'b', wallet, tx, 'InsufficientDeposit', [r.outputAmount, balance]);
  }
  await sendOk(ctx, 'b', wallet, tx);
  model.move('b', usdc, r.destAccount, r.owner, balance - r.outputAmount);
  if (r.destKind === 'transfer') model.move('b', usdc, r.destAccount, r.recipient, r.outputAmount);
  if (r.destKind === 'failing') model.move('b', usdc, r.destAccount, r.owner, r.outputAmount);
  if (r.destKind === 'vault') {
    model.move('b', usdc, r.destAccount, world.vault, r.outputAmount);
    // No yield and no donations: the vault mints shares 1:1.
    const shares = model.tokens.b.shares!;
    model.setBalance('b', shares, r.recipient, model.balance('b', shares, r.recipient) + r.outputAmount);
  }
  rm.destState = AccountState.Executed;
  rm.deployed.destB = true;
}

async function settle(ctx: RunContext, action: Of<'settle'>): Promise<void> {
  const { model, world } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const wallet = walletOf(ctx, 'a', action.actor, action.route);
  const { repaymentAddr, proof, valid } = await buildProof(ctx, rm, action.proof);
  const tx = { to: world.a.chain.contracts.originSettler, data: encodeSettle(r.order, repaymentAddr, proof) };
  if (rm.orderStatus !== OrderStatus.Open) {
    return expectFailure(ctx, 'a', wallet, tx, 'InvalidStatus', [
      r.orderId,
      OrderStatus.Open,
      rm.orderStatus,
    ]);
  }
  if (!valid) return expectFailure(ctx, 'a', wallet, tx, 'FillNotVerified', [r.orderId]);
  await sendOk(ctx, 'a', wallet, tx);
  model.move('a', model.tokens.a.usdc!, world.a.chain.contracts.originSettler, repaymentAddr, r.inputAmount);
  model.setOrderStatus(rm, OrderStatus.Settled);
  rm.settledWith = { repaymentAddr, proof };
}

/**
 * The honest attester signs only a fill it reads from the destination settler on B. The other kinds are
 * attacks: a signature by the relayer key, or the attester's signature submitted with another repayment address.
 */
async function buildProof(
  ctx: RunContext,
  rm: RouteModel,
  kind: Of<'settle'>['proof'],
): Promise<{ repaymentAddr: Address; proof: Hex; valid: boolean }> {
  const { a, b } = ctx.world;
  const record = await b.chain.publicClient.readContract({
    address: b.chain.contracts.destinationSettler,
    abi: destinationSettlerAbi,
    functionName: 'fillOf',
    args: [rm.route.orderId],
  });
  const filled = record.filler !== '0x0000000000000000000000000000000000000000';
  const sign = async (signer: 'attester' | 'relayer', filler: Address, repaymentAddr: Address) => {
    const typed = fillAttestationTypedData({
      verifier: a.chain.contracts.fillVerifier,
      originChainId: BigInt(a.chain.chainId),
      destChainId: BigInt(b.chain.chainId),
      destSettler: b.chain.contracts.destinationSettler,
      orderId: rm.route.orderId,
      filler,
      repaymentAddr,
    });
    return encodeFillProof(filler, await a.chain.wallets[signer].signTypedData(typed));
  };
  const solver = a.chain.accounts.solver.address;
  const stranger = a.chain.accounts.stranger.address;
  if (kind === 'attested' && filled) {
    const proof = await sign('attester', record.filler, record.repaymentAddr);
    return { repaymentAddr: record.repaymentAddr, proof, valid: true };
  }
  if (kind === 'attested')
    return { repaymentAddr: solver, proof: encodeFillProof(solver, '0x'), valid: false };
  if (kind === 'redirected' && filled) {
    return {
      repaymentAddr: stranger,
      proof: await sign('attester', record.filler, record.repaymentAddr),
      valid: false,
    };
  }
  return { repaymentAddr: solver, proof: await sign('relayer', solver, solver), valid: false };
}

async function orderRefund(ctx: RunContext, action: Of<'orderRefund'>): Promise<void> {
  const { model, world } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const wallet = walletOf(ctx, 'a', action.actor, action.route);
  const settler = world.a.chain.contracts.originSettler;
  const tx = { to: settler, data: encodeOrderRefund(r.order) };
  const now = await nextTimestamp(ctx, 'a');
  const refundableAfter = r.order.fillDeadline + world.grace;
  if (rm.orderStatus !== OrderStatus.Open) {
    return expectFailure(ctx, 'a', wallet, tx, 'InvalidStatus', [
      r.orderId,
      OrderStatus.Open,
      rm.orderStatus,
    ]);
  }
  if (now <= refundableAfter) {
    return expectFailure(ctx, 'a', wallet, tx, 'RefundTooEarly', [refundableAfter, now]);
  }
  await sendOk(ctx, 'a', wallet, tx);
  model.move('a', model.tokens.a.usdc!, settler, r.owner, r.inputAmount);
  model.setOrderStatus(rm, OrderStatus.Refunded);
}

async function accountRefund(ctx: RunContext, action: Of<'accountRefund'>): Promise<void> {
  const { model } = ctx;
  const rm = model.routes[action.route]!;
  const r = rm.route;
  const { chain, intent, holder, state } = refundTarget(rm, action.where);
  const wallet = walletOf(ctx, chain, action.actor, action.route);
  const tokens = action.tokens.map((name) => model.tokens[chain][name]!);
  const factory = sideOf(ctx, chain).chain.contracts.intentFactory;
  const tx = { to: factory, data: encodeDeployIfNeededAndRefund(intent, tokens, false) };
  const now = await nextTimestamp(ctx, chain);
  const openToAnyone = state !== AccountState.None || now >= intent.deadline || action.where === 'originB';
  const caller = wallet.account.address;
  if (!openToAnyone && caller !== r.owner) {
    return expectFailure(ctx, chain, wallet, tx, 'RefundNotAllowed', [r.owner, caller, intent.deadline, now]);
  }
  await sendOk(ctx, chain, wallet, tx);
  for (const token of tokens) model.moveAll(chain, token, holder, r.owner);
  rm.deployed[action.where] = true;
  // An owner refunding before anything happened cancels the intent.
  if (!openToAnyone && action.where === 'originA') rm.originState = AccountState.Cancelled;
  if (!openToAnyone && action.where === 'destB') rm.destState = AccountState.Cancelled;
}

function refundTarget(rm: RouteModel, where: RefundWhere) {
  const r = rm.route;
  if (where === 'originA')
    return { chain: 'a' as const, intent: r.origin, holder: r.originAccount, state: rm.originState };
  if (where === 'destB')
    return { chain: 'b' as const, intent: r.dest, holder: r.destAccount, state: rm.destState };
  return { chain: 'b' as const, intent: r.origin, holder: r.originAccount, state: AccountState.None };
}

/** Moves the chosen chains' clocks forward to `latest(chain)`; never backwards (a no-op then). */
async function warp(
  ctx: RunContext,
  chains: 'a' | 'b' | 'both',
  latest: (chain: ChainKey) => Promise<bigint>,
): Promise<void> {
  const keys: ChainKey[] = chains === 'both' ? ['a', 'b'] : [chains];
  for (const key of keys) {
    const { chain } = sideOf(ctx, key);
    const target = await latest(key);
    if (target > (await chain.now())) await setLatest(chain, target);
  }
}

/** The timestamp at which the next transaction should run for a boundary of a route. */
function boundaryTime(ctx: RunContext, rm: RouteModel, boundary: Boundary): bigint {
  const { deadline } = rm.route;
  const refundable = rm.route.order.fillDeadline + ctx.world.grace;
  const times: Record<Boundary, bigint> = {
    'deadline-1': deadline - 1n,
    deadline,
    refundable,
    'refundable+1': refundable + 1n,
  };
  return times[boundary];
}

function max1(x: bigint): bigint {
  return x > 0n ? x : 1n;
}
