/**
 * Settles the orders of many intents in one `OriginSettler.settleBatch` transaction per origin chain.
 * Settlement is operator work the user does not wait for, so the settle steps that arrive within
 * SETTLE_BATCH_WINDOW_MS of the first one waiting (at most SETTLE_BATCH_MAX_ORDERS) share one relayer
 * transaction: one signature, one nonce, one block and ~40 % less gas per order (test/contracts/gas-snapshot.json).
 *
 * Crash safety comes from the sender's journal and the contract, not from this queue, which is in memory:
 * - a batch is journaled (purpose SETTLE_BATCH_PURPOSE, tied to no intent) before it is broadcast;
 * - every round first waits out the key's batches still unconfirmed on the chain (a restart, a chain that was
 *   down), as stored, at their nonces, before it signs a new one: their rows end up mined and no nonce is
 *   left behind a gap; `adoptUnconfirmed` starts such a round at engine start, so a batch left by a crash is
 *   finished even when no settlement follows;
 * - a settle step re-run after a restart finds its order Settled, or attests and queues it again;
 * - settleBatch skips orders that are already over (SettlementSkipped), so an order in two batches is paid
 *   once and the other orders of both batches still settle.
 * An order is resolved by a mined batch whose receipt shows it settled or skipped.
 */
import { type Address, type Hex, type LocalAccount, toEventSelector } from 'viem';
import type { SentTransaction, TransactionSender } from '../chains/create-transaction-sender.ts';
import { encodeSettleBatch, type SettlementArgs } from '../contracts/calldata.ts';
import type { Logger } from '../internal/logger.ts';
import type { SignedTransaction, Store } from '../store/types.ts';
import { SETTLE_BATCH_MAX_ORDERS, SETTLE_BATCH_WINDOW_MS } from './constants.ts';
import { UnexpectedOutcomeError } from './errors.ts';

/** The batch transaction's journal purpose (crash points are named after it: `settle-batch:signed`, …). */
export const SETTLE_BATCH_PURPOSE = 'settle-batch';

/** The settler's events that end an order in a batch: both carry the order id as their first topic. */
const ORDER_OVER_TOPICS = new Set([
  toEventSelector('OrderSettled(bytes32,address,address)'),
  toEventSelector('SettlementSkipped(bytes32,uint8)'),
]);

export interface SettlementRequest {
  chainId: number;
  /** The origin chain's OriginSettler. */
  settler: Address;
  orderId: Hex;
  settlement: SettlementArgs;
  /** For the logs only: the batch belongs to no single intent. */
  intentId: string;
}

export interface SettlementBatcher {
  /**
   * At engine start, after the journal's re-broadcast: waits out in the background every batch of the relayer
   * left unconfirmed on these chains, so its row is marked mined even if every order in it is then found
   * settled and no settlement follows.
   */
  adoptUnconfirmed(chains: readonly { chainId: number; settler: Address }[]): void;
  /**
   * Resolves with the mined batch transaction that settled the order (or found it already over); rejects
   * with the batch's error: retryable chain trouble as the sender threw it, or a non-retryable error when the
   * batch could not be sent (its simulation reverted) or reverted on-chain, after which the caller settles
   * the order on its own, so one bad order cannot hold the others back.
   */
  settle(request: SettlementRequest): Promise<SentTransaction>;
}

export interface SettlementBatcherDeps {
  store: Store;
  sender: TransactionSender;
  relayer: LocalAccount;
  log: Logger;
  /** Override for tests. */
  windowMs?: number;
}

interface Waiting {
  request: SettlementRequest;
  queuedAt: number;
  resolve(sent: SentTransaction): void;
  reject(error: unknown): void;
}

/** One queue per (chain, settler): batches of one queue go out one at a time. */
interface Queue {
  chainId: number;
  settler: Address;
  waiting: Waiting[];
  inFlight: boolean;
  timer: NodeJS.Timeout | undefined;
}

export function createSettlementBatcher(deps: SettlementBatcherDeps): SettlementBatcher {
  const windowMs = deps.windowMs ?? SETTLE_BATCH_WINDOW_MS;
  const queues = new Map<string, Queue>();

  function queueFor(chainId: number, settler: Address): Queue {
    const key = `${chainId}:${settler.toLowerCase()}`;
    let queue = queues.get(key);
    if (!queue) {
      queue = { chainId, settler, waiting: [], inFlight: false, timer: undefined };
      queues.set(key, queue);
    }
    return queue;
  }

  /** Starts the queue's next round when its batch is full or its oldest order has waited the window out. */
  function schedule(queue: Queue): void {
    if (queue.inFlight || queue.waiting.length === 0) return;
    const dueIn =
      queue.waiting.length >= SETTLE_BATCH_MAX_ORDERS
        ? 0
        : queue.waiting[0]!.queuedAt + windowMs - performance.now();
    if (dueIn > 0) {
      queue.timer ??= setTimeout(() => {
        queue.timer = undefined;
        schedule(queue);
      }, dueIn);
      return;
    }
    clearTimeout(queue.timer);
    queue.timer = undefined;
    void round(queue, queue.waiting.splice(0, SETTLE_BATCH_MAX_ORDERS));
  }

  /** One at a time per queue: the key's unconfirmed batches first, then `batch` (what is left of it). */
  async function round(queue: Queue, batch: Waiting[]): Promise<void> {
    queue.inFlight = true;
    let open = batch;
    try {
      // One that reverted settled nothing; this round's batch still goes out.
      for (const sent of await finishUnconfirmed(queue))
        if (sent.receipt.status === 'success') open = resolveOver(queue, open, sent);
      if (open.length === 0) return;
      // Signed afresh: the key has no unconfirmed batch left (just waited out), so none is resumed.
      const sent = await deps.sender.sendOnce({
        chainId: queue.chainId,
        account: deps.relayer,
        to: queue.settler,
        data: encodeSettleBatch(open.map((w) => w.request.settlement)),
        purpose: SETTLE_BATCH_PURPOSE,
        journaled: [],
      });
      if (sent.receipt.status !== 'success') {
        throw new UnexpectedOutcomeError('the settlement batch reverted on-chain', {
          details: { hash: sent.hash, orders: open.length },
        });
      }
      const left = resolveOver(queue, open, sent);
      deps.log.info('settlement batch mined', {
        chainId: queue.chainId,
        hash: sent.hash,
        orders: open.length,
        intentIds: open.map((w) => w.request.intentId),
      });
      const missing = new UnexpectedOutcomeError('the settlement batch mined without this order', {
        details: { hash: sent.hash },
      });
      for (const w of left) w.reject(missing);
    } catch (error) {
      // The orders' steps retry or settle alone (settle.ts); a left-over batch is looked at again next round.
      deps.log.warn('settlement batch round failed', { chainId: queue.chainId, orders: open.length, error });
      for (const w of open) w.reject(error);
    } finally {
      queue.inFlight = false;
      schedule(queue);
    }
  }

  /**
   * Waits for each of the key's unconfirmed batches on the queue's chain (lowest nonce first, replacements at
   * a nonce together), re-broadcast as stored; returns the mined ones. Rows of another process using the same
   * key are waited for too, which is harmless: the first to see the receipt marks the row.
   */
  async function finishUnconfirmed(queue: Queue): Promise<SentTransaction[]> {
    const rows = await deps.store.signedTransactions.listUnconfirmed({
      chainId: queue.chainId,
      fromAddress: deps.relayer.address,
    });
    const byNonce = new Map<number, SignedTransaction[]>();
    for (const row of rows.filter((r) => r.purpose === SETTLE_BATCH_PURPOSE))
      byNonce.set(row.nonce, [...(byNonce.get(row.nonce) ?? []), row]);
    const mined: SentTransaction[] = [];
    for (const nonce of [...byNonce.keys()].sort((x, y) => x - y)) {
      const sent = await deps.sender.sendOnce({
        chainId: queue.chainId,
        account: deps.relayer,
        to: queue.settler,
        data: '0x',
        purpose: SETTLE_BATCH_PURPOSE,
        journaled: byNonce.get(nonce)!,
      });
      deps.log.info('settlement batch from before finished', { chainId: queue.chainId, hash: sent.hash });
      mined.push(sent);
    }
    return mined;
  }

  /** Resolves the orders a mined batch shows over, in `open` and still queued; returns the rest of `open`. */
  function resolveOver(queue: Queue, open: Waiting[], sent: SentTransaction): Waiting[] {
    const over = ordersOver(sent, queue.settler);
    const isOver = (w: Waiting) => over.has(w.request.orderId.toLowerCase());
    for (const w of [...open, ...queue.waiting]) if (isOver(w)) w.resolve(sent);
    queue.waiting = queue.waiting.filter((w) => !isOver(w));
    return open.filter((w) => !isOver(w));
  }

  return {
    adoptUnconfirmed(chains) {
      for (const { chainId, settler } of chains) {
        const queue = queueFor(chainId, settler);
        if (!queue.inFlight) void round(queue, []);
      }
    },
    settle(request) {
      return new Promise((resolve, reject) => {
        const queue = queueFor(request.chainId, request.settler);
        queue.waiting.push({ request, queuedAt: performance.now(), resolve, reject });
        schedule(queue);
      });
    },
  };
}

/** Order ids (lower case) the receipt shows settled or skipped by `settler`. */
function ordersOver(sent: SentTransaction, settler: Address): Set<string> {
  const ids = new Set<string>();
  for (const log of sent.receipt.logs) {
    const [topic, orderId] = log.topics;
    if (log.address.toLowerCase() !== settler.toLowerCase() || !topic || !orderId) continue;
    if (ORDER_OVER_TOPICS.has(topic)) ids.add(orderId.toLowerCase());
  }
  return ids;
}
