/**
 * A chain that comes back behind (a node restarted from an older state, a deep reorg) has lost transactions
 * the journal recorded as mined. For one chain and every operator key: rows mined once whose nonce is at or
 * above the key's confirmed nonce on the chain now and whose receipt is gone are sent again exactly as
 * stored (same raw bytes, same hash: never re-signed), all keys together in the order they were first mined
 * (block, then index in the block), each one mined (and deep, below) before the next is sent: an execution must
 * not land before the fill it spends. A row goes back to `broadcast` while it is sent again and is recorded
 * `mined` (or `failed`, if it now reverts) with its new block once that block is as deep as the chain's
 * confirmation depth, like every other send: the next one is sent only then, as the original steps did
 * (a fill deep before its execution was sent).
 *
 * Stopping: no run starts after stop(); a running one stops at its next transaction boundary (before a row
 * is marked and sent, or while it waits for one already sent: that row stays `broadcast` with its first
 * block, which the next run resumes in order) and is awaited up to RESTORE_STOP_WAIT_MS.
 *
 * Several workers: a run holds the chain's task lease (`restore-lost:<chainId>`) while it runs, so of the
 * workers that notice the same loss one sends the transactions again; the others' triggers resolve
 * `undefined` and look again later. A worker that dies mid-run stops renewing; the next trigger after its
 * lease runs out resumes the run (rows it left `broadcast` keep their first block and order).
 */
import type { Address, Hex, PublicClient, TransactionReceipt } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { NonceAlreadyUsedError } from './errors.ts';
import { mapChainError, withChainErrors } from './map-chain-error.ts';
import {
  RECEIPT_POLL_INTERVAL_MS,
  RESTORE_STOP_WAIT_MS,
  RESTORE_WAIT_PER_TRANSACTION_MS,
} from './sender-constants.ts';
import type { TaskLeaseHolder } from './task-leases.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';

export interface LostTransactionRestorer {
  /**
   * Restores the chain's lost transactions (see above) and resolves to how many were mined again. One run
   * per chain at a time: a call while one runs joins it. After stop() it starts nothing and resolves to 0.
   * Undefined: another worker is restoring this chain now (it holds the chain's lease); nothing was done.
   */
  restore(chainId: number): Promise<number | undefined>;
  /** Starts no more runs and waits (bounded) for the running ones to stop at a transaction boundary. */
  stop(): Promise<void>;
}

export interface LostTransactionRestorerDeps {
  journal: TransactionJournal;
  clientFor(chainId: number): PublicClient;
  /** Confirmation depth per chain id (blocks, counting the one that includes the transaction). */
  confirmations(chainId: number): number;
  /** The keys whose journals are looked at (the engine's sending keys). */
  operators(): readonly string[];
  log: Logger;
  /** This worker's task leases: one worker restores a chain at a time. */
  leases: TaskLeaseHolder;
  timing?: Partial<{ pollIntervalMs: number; waitPerTransactionMs: number; stopWaitMs: number }>;
}

export function createLostTransactionRestorer(deps: LostTransactionRestorerDeps): LostTransactionRestorer {
  const { journal, log } = deps;
  const pollMs = deps.timing?.pollIntervalMs ?? RECEIPT_POLL_INTERVAL_MS;
  const waitMs = deps.timing?.waitPerTransactionMs ?? RESTORE_WAIT_PER_TRANSACTION_MS;
  const stopWaitMs = deps.timing?.stopWaitMs ?? RESTORE_STOP_WAIT_MS;
  const running = new Map<number, Promise<number | undefined>>();
  let stopping = false;
  // Pauses in progress, ended at once by stop().
  const wakers = new Set<() => void>();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  const receiptOf = (client: PublicClient, hash: string) =>
    withChainErrors(() =>
      client.getTransactionReceipt({ hash: hash as Hex }).catch((error: unknown) => {
        if ((error as { name?: string }).name === 'TransactionReceiptNotFoundError') return undefined;
        throw error;
      }),
    );

  const confirmedNonce = (client: PublicClient, address: string) =>
    withChainErrors(() => client.getTransactionCount({ address: address as Address, blockTag: 'latest' }));

  async function markMined(tx: SignedTransaction, receipt: TransactionReceipt): Promise<void> {
    await journal.markMined({
      hash: tx.hash,
      status: receipt.status === 'success' ? 'mined' : 'failed',
      block: receipt.blockNumber,
      index: receipt.transactionIndex,
    });
  }

  /** One key's rows mined once at nonces the chain no longer has; rows found mined after all are recorded. */
  async function lostOf(
    chainId: number,
    client: PublicClient,
    address: string,
  ): Promise<SignedTransaction[]> {
    const highest = await journal.highestMinedNonce({ chainId, fromAddress: address });
    if (highest === undefined) return [];
    const confirmed = await confirmedNonce(client, address);
    await recordResentBelow(chainId, client, address, confirmed);
    if (confirmed > highest) return []; // the normal case: two indexed queries and one read per key
    const rows = await journal.listAtNonces({
      chainId,
      fromAddress: address,
      fromNonce: confirmed,
      belowNonce: highest + 1,
    });
    const lost: SignedTransaction[] = [];
    for (const row of rows) {
      const minedOnce =
        row.status === 'mined' ||
        row.status === 'failed' ||
        (row.status === 'broadcast' && row.minedBlock != null); // sent again by a run that did not finish
      if (!minedOnce) continue;
      const receipt = await receiptOf(client, row.hash);
      if (!receipt) lost.push(row);
      // One sent again and not deep yet is neither lost nor recorded: a later run records it.
      else if (row.status !== 'broadcast' || (await deepEnough(client, receipt, depthOf(chainId)))) {
        await markMined(row, receipt);
      }
    }
    return lost;
  }

  /**
   * Rows a run sent again and left `broadcast` (it stopped, crashed or gave up while waiting) that the chain
   * has mined since, below its nonce now: they are not lost, so no run lists them again; recorded here at
   * their depth. One query on the status index: such rows are few.
   */
  async function recordResentBelow(
    chainId: number,
    client: PublicClient,
    address: string,
    confirmed: number,
  ): Promise<void> {
    const rows = await journal.listUnconfirmed({ chainId, fromAddress: address });
    for (const row of rows) {
      if (row.minedBlock == null || row.nonce >= confirmed) continue;
      const receipt = await receiptOf(client, row.hash);
      if (receipt && (await deepEnough(client, receipt, depthOf(chainId)))) await markMined(row, receipt);
    }
  }

  /**
   * Marked `broadcast` and sent with no stop check between the two, so a row says `broadcast` once it went
   * out. Only a crash there leaves one unsent, which is harmless: the start-up re-broadcast skips a row with
   * its first block, and the next run sends it first.
   */
  async function sendAgain(client: PublicClient, tx: SignedTransaction): Promise<boolean> {
    await journal.markResent(tx.hash);
    const started = Date.now();
    try {
      await client.request({ method: 'eth_sendRawTransaction', params: [tx.raw as Hex] });
    } catch (error) {
      const mapped = mapChainError(error, { hash: tx.hash, nonce: tx.nonce });
      // "already known" (sent by a run before) or "nonce too low" (the wait below tells whose it is).
      if (!(mapped instanceof NonceAlreadyUsedError)) throw mapped;
    }
    const depth = depthOf(tx.chainId);
    for (;;) {
      if (stopping) return false; // sent: the row stays `broadcast`, the next run resumes it in order
      const receipt = await receiptOf(client, tx.hash);
      if (receipt && (await deepEnough(client, receipt, depth))) {
        await markMined(tx, receipt);
        if (receipt.status !== 'success' && tx.status === 'mined') {
          log.error('a lost transaction sent again reverted this time', {
            chainId: tx.chainId,
            hash: tx.hash,
            purpose: tx.purpose,
            intentId: tx.intentId,
          });
        }
        return true;
      }
      if (Date.now() - started > waitMs) return giveUp(client, tx);
      await pause(pollMs);
    }
  }

  const depthOf = (chainId: number) => BigInt(Math.max(1, deps.confirmations(chainId)));

  async function deepEnough(client: PublicClient, receipt: TransactionReceipt, depth: bigint) {
    if (depth <= 1n) return true;
    // Fresh: viem caches the block number for the client's polling interval.
    const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
    return head - receipt.blockNumber + 1n >= depth;
  }

  /** Not mined in time: stop this run (the rest waits, in order, for the next one) unless the nonce is gone. */
  async function giveUp(client: PublicClient, tx: SignedTransaction): Promise<false> {
    const confirmed = await confirmedNonce(client, tx.fromAddress);
    if (confirmed > tx.nonce && !(await receiptOf(client, tx.hash))) {
      // Another transaction of the key took the nonce (the key used elsewhere): this one can never mine.
      await journal.markReplaced(tx.hash);
      log.error('a lost transaction could not be sent again: its nonce was used by another transaction', {
        chainId: tx.chainId,
        hash: tx.hash,
        nonce: tx.nonce,
        purpose: tx.purpose,
        intentId: tx.intentId,
      });
      return false;
    }
    log.warn('a lost transaction sent again is not mined yet: the restore stops here until its next run', {
      chainId: tx.chainId,
      hash: tx.hash,
      nonce: tx.nonce,
    });
    return false;
  }

  async function run(chainId: number): Promise<number> {
    const client = deps.clientFor(chainId);
    const lost: SignedTransaction[] = [];
    for (const address of new Set(deps.operators().map((a) => a.toLowerCase()))) {
      if (stopping) return 0;
      lost.push(...(await lostOf(chainId, client, address)));
    }
    if (lost.length === 0) return 0;
    const ordered = inFirstMinedOrder(lost);
    log.warn('the chain lost transactions it had mined: sending them again as stored, in their order', {
      chainId,
      hashes: ordered.map((t) => t.hash),
    });
    let restored = 0;
    for (const tx of ordered) {
      if (stopping || !(await sendAgain(client, tx))) break;
      restored++;
    }
    log.info('lost transactions mined again', { chainId, restored, of: ordered.length, stopped: stopping });
    return restored;
  }

  async function stop(): Promise<void> {
    stopping = true;
    for (const wake of [...wakers]) wake();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), stopWaitMs);
    });
    const ended = await Promise.race([Promise.allSettled(running.values()), timedOut]);
    clearTimeout(timer);
    if (ended === 'timeout') {
      log.warn('a restore of lost transactions did not stop in time; left running', {
        chainIds: [...running.keys()],
        waitedMs: stopWaitMs,
      });
    }
  }

  return {
    restore(chainId) {
      if (stopping) return Promise.resolve(0);
      const current = running.get(chainId);
      if (current) return current;
      const started = deps.leases
        .runIfFree(`restore-lost:${chainId}`, () => run(chainId))
        .then((outcome) => (outcome.ran ? outcome.value : undefined))
        .finally(() => running.delete(chainId));
      running.set(chainId, started);
      return started;
    },
    stop,
  };
}

/**
 * The order the rows were first mined in: by block and index where both rows know theirs; otherwise (rows
 * mined before migration 0004) by when we recorded them. Each key's rows then keep nonce order whatever
 * the clock said: a key's slots in the sequence are refilled with its rows by nonce.
 */
export function inFirstMinedOrder(rows: readonly SignedTransaction[]): SignedTransaction[] {
  const sorted = [...rows].sort(compareMined);
  const byKey = new Map<string, SignedTransaction[]>();
  for (const row of sorted) {
    const list = byKey.get(row.fromAddress) ?? [];
    list.push(row);
    byKey.set(row.fromAddress, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.nonce - b.nonce);
  const next = new Map<string, number>();
  return sorted.map((row) => {
    const i = next.get(row.fromAddress) ?? 0;
    next.set(row.fromAddress, i + 1);
    return byKey.get(row.fromAddress)![i]!;
  });
}

function compareMined(a: SignedTransaction, b: SignedTransaction): number {
  if (a.minedBlock != null && b.minedBlock != null) {
    return a.minedBlock - b.minedBlock || (a.minedIndex ?? 0) - (b.minedIndex ?? 0) || a.id - b.id;
  }
  return (a.minedAt?.getTime() ?? 0) - (b.minedAt?.getTime() ?? 0) || a.id - b.id;
}
