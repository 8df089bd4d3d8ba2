/**
 * Checks on every successful transaction of a run, from its logs:
 * - committed payees only: every token transfer out of an account or settler goes to an address the intent
 *   or order committed to (or, from the escrow, to the repayment address of a settlement in the same tx);
 * - execute rules: each account executes at most once, before its deadline, only on its own chain;
 * - no dangling approvals: every allowance an account granted in the transaction is 0 afterwards;
 * - address determinism: every account the factory deploys sits at the address computed off-chain;
 * and it keeps the transfer ledger the conservation check adds up.
 */
import { type Address, erc20Abi, parseEventLogs, type TransactionReceipt } from 'viem';
import { expect } from 'vitest';
import {
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from '../../../src/contracts/abis.generated.ts';
import type { ChainKey, Model } from './model.ts';
import type { World } from './world.ts';

export interface Ledger {
  /** Per chain and token (lower-case address): value that entered and left the system addresses. */
  flows: Record<ChainKey, Map<string, { in: bigint; out: Map<string, bigint> }>>;
  /** Executed events seen per account (chain:address). */
  executions: Map<string, number>;
  /** OrderSettled / OrderRefunded events seen per order id. */
  orderEnds: Map<string, number>;
}

export function newLedger(): Ledger {
  return { flows: { a: new Map(), b: new Map() }, executions: new Map(), orderEnds: new Map() };
}

const lower = (address: string) => address.toLowerCase();

export async function checkReceipt(
  world: World,
  model: Model,
  ledger: Ledger,
  chain: ChainKey,
  receipt: TransactionReceipt,
): Promise<void> {
  const side = chain === 'a' ? world.a : world.b;
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
  const settlements = parseEventLogs({ abi: originSettlerAbi, logs: receipt.logs, strict: true });
  for (const t of transfers) {
    const { from, to, value } = t.args;
    recordFlow(model, ledger, chain, t.address, from, to, value);
    if (!model.isSystem(chain, from)) continue;
    const allowed = allowedPayees(world, model, chain, from, settlements);
    expect(allowed, `payee of a transfer out of ${from} on ${chain}`).toContain(lower(to));
  }
  await checkExecutions(
    model,
    ledger,
    chain,
    receipt,
    (await side.chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp,
  );
  await checkApprovalsCleared(world, model, chain, receipt);
  checkDeployedAddresses(model, chain, receipt);
  for (const s of settlements) {
    if (s.eventName !== 'OrderSettled' && s.eventName !== 'OrderRefunded') continue;
    const count = (ledger.orderEnds.get(s.args.orderId) ?? 0) + 1;
    ledger.orderEnds.set(s.args.orderId, count);
    expect(count, `settle/refund events of order ${s.args.orderId}`).toBe(1);
  }
}

function recordFlow(
  model: Model,
  ledger: Ledger,
  chain: ChainKey,
  token: Address,
  from: Address,
  to: Address,
  value: bigint,
): void {
  const fromSystem = model.isSystem(chain, from);
  const toSystem = model.isSystem(chain, to);
  if (fromSystem === toSystem) return;
  const key = lower(token);
  const flow = ledger.flows[chain].get(key) ?? { in: 0n, out: new Map<string, bigint>() };
  if (toSystem) flow.in += value;
  else flow.out.set(lower(to), (flow.out.get(lower(to)) ?? 0n) + value);
  ledger.flows[chain].set(key, flow);
}

type SettlerEvents = ReturnType<typeof parseEventLogs<typeof originSettlerAbi>>;

function allowedPayees(
  world: World,
  model: Model,
  chain: ChainKey,
  from: Address,
  events: SettlerEvents,
): string[] {
  const out: string[] = [];
  const settler = world.a.chain.contracts.originSettler;
  for (const { route } of model.routes) {
    if (chain === 'a' && lower(from) === lower(route.originAccount)) {
      out.push(route.owner, world.a.chain.accounts.feeCollector.address, settler);
    }
    if (chain === 'b' && lower(from) === lower(route.originAccount)) out.push(route.owner);
    if (chain === 'b' && lower(from) === lower(route.destAccount)) {
      out.push(route.owner);
      if (route.destKind === 'transfer') out.push(route.recipient);
      if (route.destKind === 'vault') out.push(world.vault);
    }
  }
  if (chain === 'a' && lower(from) === lower(settler)) {
    for (const e of events) {
      if (e.eventName === 'OrderSettled') out.push(e.args.repaymentAddr);
      if (e.eventName === 'OrderRefunded') {
        const rm = model.routes.find((x) => x.route.orderId === e.args.orderId);
        if (rm) out.push(rm.route.order.refundRecipient);
      }
    }
  }
  return out.map(lower);
}

/** At most once, strictly before the deadline, and only the intent's own chain (O on A, D on B). */
async function checkExecutions(
  model: Model,
  ledger: Ledger,
  chain: ChainKey,
  receipt: TransactionReceipt,
  timestamp: bigint,
): Promise<void> {
  const executed = parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: receipt.logs });
  for (const e of executed) {
    const rm = model.routes.find(
      (x) => lower(chain === 'a' ? x.route.originAccount : x.route.destAccount) === lower(e.address),
    );
    expect(rm, `Executed by ${e.address} on chain ${chain}: not an intent of this chain`).toBeDefined();
    expect(timestamp, 'execute time').toBeLessThan(rm!.route.deadline);
    const key = `${chain}:${lower(e.address)}`;
    const count = (ledger.executions.get(key) ?? 0) + 1;
    ledger.executions.set(key, count);
    expect(count, `executions of ${e.address}`).toBe(1);
  }
}

async function checkApprovalsCleared(
  world: World,
  model: Model,
  chain: ChainKey,
  receipt: TransactionReceipt,
): Promise<void> {
  const side = chain === 'a' ? world.a : world.b;
  const approvals = parseEventLogs({ abi: erc20Abi, eventName: 'Approval', logs: receipt.logs }).filter((e) =>
    model.isSystem(chain, e.args.owner),
  );
  const left = await Promise.all(
    approvals.map((e) =>
      side.reader.readContract({
        address: e.address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [e.args.owner, e.args.spender],
      }),
    ),
  );
  left.forEach((value, i) => {
    expect(value, `allowance ${approvals[i]!.args.owner} → ${approvals[i]!.args.spender}`).toBe(0n);
  });
}

function checkDeployedAddresses(model: Model, chain: ChainKey, receipt: TransactionReceipt): void {
  const deployed = parseEventLogs({ abi: intentFactoryAbi, eventName: 'IntentDeployed', logs: receipt.logs });
  for (const d of deployed) {
    const expected = model.routes.flatMap(({ route }) => [
      { hash: route.originHash, account: route.originAccount },
      { hash: route.destHash, account: route.destAccount },
    ]);
    const match = expected.find((x) => x.hash === d.args.intentHash);
    expect(match, `deployed intent ${d.args.intentHash} on ${chain}`).toBeDefined();
    expect(lower(d.args.account)).toBe(lower(match!.account));
  }
}
