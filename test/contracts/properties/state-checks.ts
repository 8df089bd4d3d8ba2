/**
 * Checks after every action, on both chains:
 * - the model: every tracked balance, order status, fill status and account state equals the chain's;
 * - conservation: per chain and token, value that entered the accounts and settlers = value that left them
 *   (to owners, the fee collector, recipients, repayment addresses) + what they still hold; the factory,
 *   verifier, implementation and the unused settler hold nothing;
 * - escrow solvency: the origin settler holds at least the sum of Open orders; each order went
 *   None → Open → (Settled | Refunded) with no other transition;
 * - settled ⇒ filled: a settled order's fill is recorded on B with the repayment address that was paid,
 *   and the attestation that settled it still verifies on A;
 * - no dangling approvals: executed accounts leave no allowance to the settler or the vault.
 */
import { type Address, erc20Abi } from 'viem';
import { expect } from 'vitest';
import {
  attestedFillVerifierAbi,
  destinationSettlerAbi,
  intentAccountAbi,
  originSettlerAbi,
} from '../../../src/contracts/abis.generated.ts';
import { AccountState, FillStatus, OrderStatus } from '../../../src/contracts/types.ts';
import type { ChainKey, Model } from './model.ts';
import type { Ledger } from './receipt-checks.ts';
import type { World } from './world.ts';

const lower = (address: string) => address.toLowerCase();

/** Reads every tracked balance of a chain (one batched request). */
export async function readBalances(
  world: World,
  model: Model,
  chain: ChainKey,
): Promise<Map<string, bigint>> {
  const side = chain === 'a' ? world.a : world.b;
  const pairs = model.tracked(chain);
  const values = await Promise.all(
    pairs.map(({ token, holder }) =>
      side.reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
    ),
  );
  return new Map(pairs.map(({ token, holder }, i) => [model.key(chain, token, holder), values[i]!]));
}

export async function checkState(world: World, model: Model, ledger: Ledger): Promise<void> {
  for (const chain of ['a', 'b'] as const) {
    const actual = await readBalances(world, model, chain);
    const expected = new Map([...actual.keys()].map((key) => [key, modelValue(model, key)]));
    expect(Object.fromEntries(actual), `balances on chain ${chain}`).toEqual(Object.fromEntries(expected));
    checkConservation(model, ledger, chain, actual);
    if (chain === 'a') checkOriginBreakdown(world, model, ledger);
    else checkDestBreakdown(world, model, ledger);
    for (const contract of model.mustBeEmpty[chain]) {
      for (const token of Object.values(model.tokens[chain])) {
        expect(actual.get(model.key(chain, token, contract)), `${contract} holds ${token}`).toBe(0n);
      }
    }
  }
  await checkOrders(world, model);
  await checkAccounts(world, model);
}

function modelValue(model: Model, key: string): bigint {
  const [chain, token, holder] = key.split(':') as [ChainKey, Address, Address];
  return model.balance(chain, token, holder);
}

/** in − out = held, per token; and the outflows by kind match what the model says happened. */
function checkConservation(
  model: Model,
  ledger: Ledger,
  chain: ChainKey,
  balances: Map<string, bigint>,
): void {
  for (const token of Object.values(model.tokens[chain])) {
    const flow = ledger.flows[chain].get(lower(token)) ?? { in: 0n, out: new Map<string, bigint>() };
    const out = [...flow.out.values()].reduce((x, y) => x + y, 0n);
    const held = model.holders[chain]
      .filter((holder) => model.isSystem(chain, holder))
      .reduce((sum, holder) => sum + balances.get(model.key(chain, token, holder))!, 0n);
    expect(flow.in - out, `conservation of ${token} on chain ${chain}: in − out = held`).toBe(held);
  }
}

/** On A: fees = Σ fees of executed origins; repayments = Σ inputs of settled orders, to their repayment addresses. */
function checkOriginBreakdown(world: World, model: Model, ledger: Ledger): void {
  const out = ledger.flows.a.get(lower(model.tokens.a.usdc!))?.out ?? new Map<string, bigint>();
  const executed = model.routes.filter((rm) => rm.originState === AccountState.Executed);
  const fees = executed.reduce((sum, rm) => sum + rm.route.feeAmount, 0n);
  expect(out.get(lower(world.a.chain.accounts.feeCollector.address)) ?? 0n, 'fees paid').toBe(fees);
  const repaid = new Map<string, bigint>([
    [lower(world.a.chain.accounts.solver.address), 0n],
    [lower(world.treasury), 0n],
  ]);
  for (const rm of model.routes.filter((x) => x.orderStatus === OrderStatus.Settled)) {
    const to = lower(rm.settledWith!.repaymentAddr);
    repaid.set(to, (repaid.get(to) ?? 0n) + rm.route.inputAmount);
  }
  for (const [to, amount] of repaid) expect(out.get(to) ?? 0n, `repaid to ${to}`).toBe(amount);
}

/** On B: delivered to recipients and the vault = Σ outputs of destination intents whose calls succeeded. */
function checkDestBreakdown(world: World, model: Model, ledger: Ledger): void {
  const out = ledger.flows.b.get(lower(model.tokens.b.usdc!))?.out ?? new Map<string, bigint>();
  const delivered = model.routes
    .filter((rm) => rm.destState === AccountState.Executed && rm.route.destKind !== 'failing')
    .reduce((sum, rm) => sum + rm.route.outputAmount, 0n);
  const payees = [world.vault, ...model.routes.map((rm) => rm.route.recipient)].map(lower);
  const actual = [...new Set(payees)].reduce((sum, to) => sum + (out.get(to) ?? 0n), 0n);
  expect(actual, 'delivered on B').toBe(delivered);
}

async function checkOrders(world: World, model: Model): Promise<void> {
  const { a, b } = world;
  const ids = model.routes.map((rm) => rm.route.orderId);
  const [statuses, fills, escrow] = await Promise.all([
    Promise.all(
      ids.map((id) =>
        a.reader.readContract({
          address: a.chain.contracts.originSettler,
          abi: originSettlerAbi,
          functionName: 'orderStatus',
          args: [id],
        }),
      ),
    ),
    Promise.all(
      ids.map((id) =>
        b.reader.readContract({
          address: b.chain.contracts.destinationSettler,
          abi: destinationSettlerAbi,
          functionName: 'fillOf',
          args: [id],
        }),
      ),
    ),
    a.reader.readContract({
      address: a.chain.tokens.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [a.chain.contracts.originSettler],
    }),
  ]);
  let openSum = 0n;
  for (const [i, rm] of model.routes.entries()) {
    expect(statuses[i], `order status of route ${i}`).toBe(rm.orderStatus);
    expect(validHistory(rm.statusHistory), `order transitions ${rm.statusHistory.join('→')}`).toBe(true);
    expect(fills[i]!.filler !== zero ? FillStatus.Filled : FillStatus.Unfilled, `fill of route ${i}`).toBe(
      rm.fill ? FillStatus.Filled : FillStatus.Unfilled,
    );
    if (rm.orderStatus === OrderStatus.Open) openSum += rm.route.inputAmount;
    if (rm.orderStatus === OrderStatus.Settled) await checkSettledWasFilled(world, rm, fills[i]!);
  }
  expect(escrow >= openSum, `escrow ${escrow} ≥ open orders ${openSum}`).toBe(true);
}

const zero: Address = '0x0000000000000000000000000000000000000000';

/** None → Open → Settled | Refunded, each step at most once (repeats of the same status are reads). */
function validHistory(history: number[]): boolean {
  const steps = history.filter((status, i) => i === 0 || status !== history[i - 1]);
  const allowed = [
    [OrderStatus.None],
    [OrderStatus.None, OrderStatus.Open],
    [OrderStatus.None, OrderStatus.Open, OrderStatus.Settled],
    [OrderStatus.None, OrderStatus.Open, OrderStatus.Refunded],
  ];
  return allowed.some((path) => path.length === steps.length && path.every((s, i) => s === steps[i]));
}

async function checkSettledWasFilled(
  world: World,
  rm: Model['routes'][number],
  fill: { filler: Address; repaymentAddr: Address },
): Promise<void> {
  const { a, b } = world;
  const status = await b.reader.readContract({
    address: b.chain.contracts.destinationSettler,
    abi: destinationSettlerAbi,
    functionName: 'fillStatus',
    args: [rm.route.orderId],
  });
  expect(status, 'settled order is filled on B').toBe(FillStatus.Filled);
  expect(lower(fill.repaymentAddr), 'repaid the address recorded by the fill').toBe(
    lower(rm.settledWith!.repaymentAddr),
  );
  const [valid, filler] = await a.reader.readContract({
    address: a.chain.contracts.fillVerifier,
    abi: attestedFillVerifierAbi,
    functionName: 'verifyFill',
    args: [
      BigInt(b.chain.chainId),
      b.chain.contracts.destinationSettler,
      rm.route.orderId,
      fill.repaymentAddr,
      rm.settledWith!.proof,
    ],
  });
  expect(valid, 'the attestation that settled the order verifies').toBe(true);
  expect(lower(filler)).toBe(lower(fill.filler));
}

/** Account states, and no allowance left by an executed account to the spenders its calls approved. */
async function checkAccounts(world: World, model: Model): Promise<void> {
  const { a, b } = world;
  for (const rm of model.routes) {
    const r = rm.route;
    const reads: Promise<void>[] = [];
    if (rm.deployed.originA) {
      reads.push(expectState(a.reader, r.originAccount, rm.originState, 'origin account'));
      reads.push(
        expectNoAllowance(a.reader, a.chain.tokens.usdc, r.originAccount, a.chain.contracts.originSettler),
      );
    }
    if (rm.deployed.destB) {
      reads.push(expectState(b.reader, r.destAccount, rm.destState, 'destination account'));
      reads.push(expectNoAllowance(b.reader, b.chain.tokens.usdc, r.destAccount, world.vault));
    }
    if (rm.deployed.originB) reads.push(expectState(b.reader, r.originAccount, AccountState.None, 'O on B'));
    await Promise.all(reads);
  }
}

type Reader = World['a']['reader'];

async function expectState(reader: Reader, account: Address, state: number, what: string): Promise<void> {
  const actual = await reader.readContract({
    address: account,
    abi: intentAccountAbi,
    functionName: 'state',
  });
  expect(actual, `${what} ${account} state`).toBe(state);
}

async function expectNoAllowance(
  reader: Reader,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<void> {
  const left = await reader.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  });
  expect(left, `allowance ${owner} → ${spender}`).toBe(0n);
}
