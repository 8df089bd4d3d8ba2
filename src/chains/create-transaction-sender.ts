/**
 * Sends operator transactions so that a crash at any point is harmless:
 *
 * 1. a transaction already journaled for (intent, purpose) is resumed, never signed again;
 * 2. otherwise the call is simulated (eth_estimateGas: a revert fails here, before anything is signed),
 *    unless the caller sends it `unsimulated` (it depends on a transaction still in the pool);
 * 3. the nonce is allocated per (chain, address) in the database and the signed raw transaction is stored
 *    in the same database transaction, before it is broadcast;
 * 4. it is broadcast, then watched until mined and buried under the chain's confirmation depth;
 * 5. a transaction stuck for STUCK_AFTER_MS is replaced at the same nonce with scaled fees;
 *    fees are EIP-1559 or, on a chain without it, a legacy gas price, never above the chain's cap
 *    (`maxFeePerGas`): a send the chain would not include under the cap waits, unsigned (fee-caps.ts);
 * 6. a send waiting behind a nonce gap left by mined transactions the chain lost (it came back behind)
 *    starts the chain's restore (restore-lost-transactions.ts), which sends them again as stored, in order.
 */
import type { Address, Hex, PublicClient } from 'viem';
import { broadcast, sendRaw } from './broadcast-transaction.ts';
import { createNonceTakenCheck } from './check-nonce-not-taken.ts';
import { crashPoint } from './debug-crash-point.ts';
import { UnknownChainError } from './errors.ts';
import { createFeeCache } from './fee-cache.ts';
import { createFeesUnderCap } from './fees-under-cap.ts';
import { createHeadWatcher } from './head-watcher.ts';
import { createLatestBlockCache } from './latest-block-cache.ts';
import { createLocalTaskLeases } from './local-task-leases.ts';
import { createNextNonceLook } from './next-nonce-unmined.ts';
import { createLostNotice } from './notice-lost-transactions.ts';
import { createLostTransactionRestorer } from './restore-lost-transactions.ts';
import {
  NONCE_FLOOR_CACHE_MS,
  RECEIPT_POLL_INTERVAL_MS,
  STUCK_AFTER_MS,
  WAIT_PER_ATTEMPT_MS,
} from './sender-constants.ts';
import { createNewTransactionSigner } from './sign-new-transaction.ts';
import { createReplacementSigner } from './sign-replacement.ts';
import { createSigningGate } from './signing-gate.ts';
import type { SignedTransaction } from './transaction-journal.ts';
import type { TransactionSender, TransactionSenderDeps } from './transaction-sender-types.ts';
import { createTtlMemo } from './ttl-memo.ts';
import { createReceiptWait } from './wait-for-receipt.ts';

export type {
  SendRequest,
  SendStage,
  SentTransaction,
  TransactionSender,
  TransactionSenderDeps,
} from './transaction-sender-types.ts';

export function createTransactionSender<Row = unknown>(
  deps: TransactionSenderDeps<Row>,
): TransactionSender<Row> {
  const { journal, log } = deps;
  const stuckAfterMs = deps.timing?.stuckAfterMs ?? STUCK_AFTER_MS;
  const waitPerAttemptMs = deps.timing?.waitPerAttemptMs ?? WAIT_PER_ATTEMPT_MS;
  const pollMs = deps.timing?.pollIntervalMs ?? RECEIPT_POLL_INTERVAL_MS;
  const feeCache = createFeeCache();
  const latestBlocks = deps.latestBlocks ?? createLatestBlockCache((chainId) => clientFor(chainId));
  const heads = createHeadWatcher((chainId) => clientFor(chainId));
  // The chain's pending nonce per key: only a floor under the database's own count (a fresh database, a key
  // used elsewhere), so sends of one window share it.
  const nonceFloors = createTtlMemo<string, number>(NONCE_FLOOR_CACHE_MS);
  // Tail of the queue per exclusive() key; entries are removed when their queue drains.
  const exclusiveTails = new Map<string, Promise<unknown>>();
  const keysUsed = new Set((deps.operators ?? []).map((a) => a.toLowerCase()));
  const leases = deps.leases ?? createLocalTaskLeases();
  const gate = createSigningGate();
  const signNew = createNewTransactionSigner({
    journal,
    clientFor: (chainId) => clientFor(chainId),
    feesUnderCap: createFeesUnderCap({
      maxFeePerGas: deps.maxFeePerGas,
      feeCache,
      latestBlocks,
      heads,
      log,
      waitPerAttemptMs,
      pollMs,
    }),
    nonceFloors,
    gate,
  });
  const signReplacement = createReplacementSigner({ journal, log, maxFeePerGas: deps.maxFeePerGas, gate });
  const keyUsed = (address: string) => keysUsed.add(address.toLowerCase());
  const checkNonceNotTaken = createNonceTakenCheck({
    journal,
    noticeLost: createLostNotice({ journal, keyUsed, restore: (chainId) => restorer.restore(chainId), log }),
  });
  const waitForAny = createReceiptWait({
    journal,
    clientFor: (chainId) => clientFor(chainId),
    confirmations: deps.confirmations,
    heads,
    log,
    signReplacement,
    checkNonceNotTaken,
    nextNonceUnmined: createNextNonceLook({ journal, log }),
    stuckAfterMs,
    waitPerAttemptMs,
    pollMs,
  });
  const restorer = createLostTransactionRestorer({
    journal,
    clientFor: (chainId) => clientFor(chainId),
    confirmations: deps.confirmations,
    operators: () => [...keysUsed],
    log,
    leases,
    ...(deps.timing?.pollIntervalMs !== undefined && {
      timing: { pollIntervalMs: deps.timing.pollIntervalMs },
    }),
  });

  const clientFor = (chainId: number): PublicClient => {
    const client = deps.clients.get(chainId);
    if (!client) throw new UnknownChainError(`no RPC client for chain ${chainId}`, { details: { chainId } });
    return client;
  };

  async function journaled(req: { intentId?: string; purpose: string; chainId: number; from?: Address }) {
    const rows = req.intentId
      ? await journal.listForIntent(req.intentId)
      : await journal.listUnconfirmed({ chainId: req.chainId, fromAddress: req.from ?? '' });
    return rows.filter((t) => t.purpose === req.purpose && t.chainId === req.chainId);
  }

  /** Marks whichever row at this nonce has a receipt as mined (the others replaced); false if none. */
  async function reconcileMined(tx: SignedTransaction, pending: SignedTransaction[]): Promise<boolean> {
    const client = clientFor(tx.chainId);
    const sameNonce = pending.filter(
      (p) => p.chainId === tx.chainId && p.fromAddress === tx.fromAddress && p.nonce === tx.nonce,
    );
    for (const candidate of sameNonce) {
      const receipt = await client
        .getTransactionReceipt({ hash: candidate.hash as Hex })
        .catch(() => undefined);
      if (!receipt) continue;
      await journal.markMined({
        hash: candidate.hash,
        status: receipt.status === 'success' ? 'mined' : 'failed',
        block: receipt.blockNumber,
        index: receipt.transactionIndex,
      });
      for (const other of sameNonce) {
        if (other.hash !== candidate.hash) await journal.markReplaced(other.hash);
      }
      return true;
    }
    return false;
  }

  return {
    async sendOnce(req) {
      keyUsed(req.account.address);
      const existing = req.journaled ?? (await journaled({ ...req, from: req.account.address }));
      const done = existing.find((t) => t.status === 'mined' || t.status === 'failed');
      if (done) return waitForAny(req, [done]);
      let candidates = existing.filter((t) => t.status === 'signed' || t.status === 'broadcast');
      const client = clientFor(req.chainId);
      if (candidates.length === 0) {
        const signed = await signNew(req);
        // A `signedRow` was written with the record.
        if (req.recordStage && !req.signedRow) await req.recordStage('signed', signed.hash as Hex, undefined);
        else if (!req.recordStage) await req.onStage?.('signed', signed.hash as Hex);
        crashPoint(`${req.purpose}:signed`);
        candidates = [signed];
      }
      // Resumed or new: (re-)broadcast the newest as stored; never re-signed with another nonce.
      const latest = candidates.at(-1)!;
      let broadcastWritten: Promise<void> | undefined;
      if (req.recordStage) {
        await sendRaw(client, latest);
        // The first receipt read goes out beside the broadcast stage's write (one round trip sooner); the
        // write is awaited before the mined stage's, so the two commit in their order.
        broadcastWritten = req.recordStage('broadcast', latest.hash as Hex, {
          stage: 'broadcast',
          hash: latest.hash,
        });
        broadcastWritten.catch(() => undefined);
      } else if (req.holdBroadcastMark && req.onStage) {
        await sendRaw(client, latest);
        // In the pool, its mark not written: the journal's row is still `signed`.
        crashPoint(`${req.purpose}:sent`);
        // The caller writes the mark with its own stage write (the fill's: the destination step journaled
        // in the mark's statement, so it reads the fill as broadcast).
        await req.onStage('broadcast', latest.hash as Hex, { stage: 'broadcast', hash: latest.hash });
      } else {
        await sendRaw(client, latest);
        // The mark is issued first and the caller's stage work beside it: on one connection the mark commits
        // before anything the stage work then writes or reads, one round trip sooner than awaiting the mark
        // first.
        const marked = journal.markBroadcast({ hash: latest.hash });
        await Promise.all([marked, req.onStage?.('broadcast', latest.hash as Hex)]);
      }
      crashPoint(`${req.purpose}:broadcast`);
      try {
        return await waitForAny(req, candidates, broadcastWritten);
      } finally {
        // Its failure is this send's even when the wait ended first (e.g. not mined within the attempt).
        await broadcastWritten;
      }
    },

    journaled: (req) => journaled(req),

    restoreLost: (chainId) => restorer.restore(chainId),

    stopRestoring: () => restorer.stop(),

    async stopSigning() {
      await gate.stop();
    },

    exclusive(key, job) {
      const previous = exclusiveTails.get(key) ?? Promise.resolve();
      // In this process a queue (no polling between its own steps); across workers the task lease.
      const leased = () => leases.runExclusive(key, job);
      const run = previous.then(leased, leased);
      const tail = run.catch(() => undefined);
      exclusiveTails.set(key, tail);
      void tail.then(() => {
        if (exclusiveTails.get(key) === tail) exclusiveTails.delete(key);
      });
      return run;
    },

    async rebroadcastUnconfirmed() {
      const pending = await journal.listUnconfirmed();
      const newest = new Map<string, SignedTransaction>();
      // A row mined once and being sent again when the process stopped belongs to the chain's restore,
      // which sends it in its order (the engine's chain watch runs one per chain at start).
      for (const tx of pending) {
        if (tx.minedBlock == null) newest.set(`${tx.chainId}:${tx.fromAddress}:${tx.nonce}`, tx);
      }
      for (const tx of newest.values()) {
        try {
          // Mined while the process was down, by a transaction no step will wait on again (a step that
          // finds its effect on-chain, e.g. an allowance already set, skips the sender): record it here,
          // or the row would stay "unconfirmed" and be re-broadcast at every start.
          if (await reconcileMined(tx, pending)) continue;
          await broadcast(journal, clientFor(tx.chainId), tx);
        } catch (error) {
          log.warn('re-broadcast failed; the owning step will retry', { hash: tx.hash, error });
        }
      }
      return newest.size;
    },
  };
}
