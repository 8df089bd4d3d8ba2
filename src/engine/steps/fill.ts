/**
 * Step `fill`: the solver fills the destination account from its own inventory through the
 * DestinationSettler. Idempotent: an order already filled is not filled again (fillStatus is read first),
 * and a journaled fill is resumed. The solver approves the settler once per token (max allowance).
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256, type PublicClient } from 'viem';
import type { SendStage } from '../../chains/create-transaction-sender.ts';
import { RetryLaterError } from '../../chains/errors.ts';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import type { JournalMark } from '../../chains/transaction-journal.ts';
import { encodeFill } from '../../contracts/calldata.ts';
import { FillStatus } from '../../contracts/types.ts';
import { isTerminal } from '../../store/statuses.ts';
import { balanceAt, readFillStatus, recentChainNow } from '../chain-reads.ts';
import type { EngineContext, StepDefinition } from '../context.ts';
import { DeadlinePassedError, UnexpectedOutcomeError } from '../errors.ts';
import { writeRow } from '../receipts.ts';
import { loadOrder } from './load-order.ts';

export const FILL_PURPOSE = 'solver-fill';
/**
 * After the fill: the destination execution, settlement, and the refund of the filled amount if the
 * destination never executes before its deadline (journaled with them, so a crash cannot lose it).
 */
const FILL_SUCCESSORS = ['destination', 'settle', 'destination-refund'];

export const fillStep: StepDefinition = {
  name: 'fill',
  // The destination execution goes out right behind the fill (below), so it can end the intent before this
  // step completes (a crash in between, a slow confirmation): a fill already journaled is then still seen
  // through, and its completion journals settlement. An ended intent never gets a new fill.
  runsAfterTerminal: true,
  async run(ctx, input) {
    const { intent } = input;
    if (isTerminal(intent.status) && !(await hasJournaledFill(ctx, intent.intentId)))
      return { kind: 'done', next: [] };
    const { order, orderId, originChainId } = await loadOrder(ctx, input);
    const dest = ctx.chain(order.destChainId);
    const destChainId = Number(order.destChainId);

    const request = {
      chainId: destChainId,
      account: ctx.keys.solver,
      to: order.destSettler,
      data: encodeFill(
        order,
        originChainId,
        ctx.chain(originChainId).config.contracts.originSettler,
        ctx.keys.solver.address,
      ),
      purpose: FILL_PURPOSE,
      intentId: intent.intentId,
      // The fill's mined mark is written with this step's completion (one statement on Postgres), which
      // journals settlement: settle reads the fill as mined, and the mark costs no statement of its own.
      holdMinedMark: true,
      // The destination execution can go out right behind the fill, into the same block (see the
      // destination step): it is journaled once the fill is in the pool, not once the fill is deep enough.
      // Settlement waits for the completion (it needs the fill at depth). A chain with the switch off
      // journals it with settlement: no step polls a fill that is only in the pool. With the switch on, the
      // fill's broadcast mark is written with the destination step (one statement on Postgres): the sender
      // hands it over instead of writing it.
      holdBroadcastMark: dest.config.destinationBehindFill === true,
      onStage: async (stage: SendStage, _hash: Hex, mark?: JournalMark) => {
        if (stage === 'broadcast' && dest.config.destinationBehindFill)
          await ctx.enqueue(intent.intentId, 'destination', undefined, mark);
      },
    };
    // Independent reads in one round trip: the clock and the inventory only matter on the first attempt
    // (no journal yet), which is the usual case. The destination's PENDING row goes out beside them: on
    // Postgres the row and the journal read share one socket write instead of two round trips in a row.
    const [status, journaled, now, inventory] = await Promise.all([
      readFillStatus(dest.client, order.destSettler, orderId),
      ctx.sender.journaled(request),
      recentChainNow(ctx, destChainId),
      readInventory(ctx, destChainId, order.outputToken, order.destSettler),
      writeRow(ctx.store, intent.intentId, 'destination', { chainId: destChainId, status: 'PENDING' }),
    ]);
    if (status === FillStatus.Filled && journaled.length === 0)
      return { kind: 'done', next: FILL_SUCCESSORS };
    if (journaled.length === 0) {
      if (now > order.fillDeadline) {
        throw new DeadlinePassedError('the fill deadline passed before the fill', {
          details: { fillDeadline: order.fillDeadline, now },
        });
      }
      await ensureInventory(ctx, destChainId, order, inventory);
    }
    // The rows just read: only this step (its lease held) journals fills of this intent.
    const sent = await ctx.sender.sendOnce({ ...request, journaled });
    if (sent.receipt.status !== 'success') {
      throw new UnexpectedOutcomeError('the fill transaction reverted on-chain', {
        details: { hash: sent.hash },
      });
    }
    return { kind: 'done', next: FILL_SUCCESSORS, journalMark: sent.minedMark };
  },
  async giveUp(ctx, { intent, plan }, reason) {
    // The locked amount stays in the OriginSettler, refundable after fillDeadline + grace (refund path).
    await writeRow(ctx.store, intent.intentId, 'destination', {
      chainId: Number(plan.destination?.intent.chainId ?? plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: `fill failed: ${reason}`,
    });
  },
};

interface Inventory {
  balance: bigint;
  allowance: bigint;
}

/** The solver's balance of the token and its allowance for the settler, read together. */
async function readInventory(
  ctx: EngineContext,
  chainId: number,
  token: Address,
  settler: Address,
): Promise<Inventory> {
  const { client } = ctx.chain(chainId);
  const solver = ctx.keys.solver.address;
  const [balance, allowance] = await Promise.all([
    balanceAt(client, token, solver),
    readAllowance(client, token, solver, settler),
  ]);
  return { balance, allowance };
}

function readAllowance(client: PublicClient, token: Address, owner: Address, spender: Address) {
  return withChainErrors(() =>
    client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] }),
  );
}

/** Enough inventory and an allowance for the settler; short inventory waits (an operator rebalances). */
async function ensureInventory(
  ctx: EngineContext,
  chainId: number,
  order: { outputToken: Address; outputAmount: bigint; destSettler: Address },
  read: Inventory,
): Promise<void> {
  const { outputToken: token, outputAmount: amount, destSettler: settler } = order;
  const { client } = ctx.chain(chainId);
  const solver = ctx.keys.solver.address;
  if (read.balance < amount) {
    throw new RetryLaterError('solver inventory is short on the destination chain', {
      details: { chainId, token, required: amount, actual: read.balance },
    });
  }
  // Read before the lock: enough already (the usual case) needs no approve and no wait for the lock.
  if (read.allowance >= amount) return;
  // Fills of the same token run concurrently: without the lock each read a zero allowance and each sent an
  // approve (seen in test/resilience/random-kill.test.ts). With it the second one reads the first's result.
  await ctx.sender.exclusive(`approve:${chainId}:${token.toLowerCase()}`, async () => {
    const allowance = await readAllowance(client, token, solver, settler);
    if (allowance >= amount) return;
    await ctx.sender.sendOnce({
      chainId,
      account: ctx.keys.solver,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [settler, maxUint256] }),
      purpose: `solver-approve:${token.toLowerCase()}`,
    });
  });
}

/** Any fill of this intent in the journal (signed, sent, mined or reverted): the fill went out. */
async function hasJournaledFill(ctx: EngineContext, intentId: string): Promise<boolean> {
  const rows = await ctx.store.signedTransactions.listForIntent(intentId);
  return rows.some((r) => r.purpose === FILL_PURPOSE);
}
