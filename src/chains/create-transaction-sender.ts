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
import { TransactionPendingError, UnknownChainError } from './errors.ts';
import { createFeeCache } from './fee-cache.ts';
import { createFeesUnderCap } from './fees-under-cap.ts';
import { createHeadWatcher } from './head-watcher.ts';
import { createLatestBlockCache } from './latest-block-cache.ts';
import { createLocalTaskLeases } from './local-task-leases.ts';
import { withChainErrors } from './map-chain-error.ts';
import { minedAt } from './mined-at.ts';
import { createNextNonceLook } from './next-nonce-unmined.ts';
import { createLostNotice } from './notice-lost-transactions.ts';
import { readReceipt } from './read-receipt.ts';
import { createLostTransactionRestorer } from './restore-lost-transactions.ts';
import {
  MAX_REPLACEMENTS,
  NONCE_FLOOR_CACHE_MS,
  NONCE_TAKEN_CHECK_EVERY_MS,
  REBROADCAST_EVERY_MS,
  RECEIPT_POLL_INTERVAL_MS,
  STUCK_AFTER_MS,
  WAIT_PER_ATTEMPT_MS,
} from './sender-constants.ts';
import { createNewTransactionSigner } from './sign-new-transaction.ts';
import { createReplacementSigner } from './sign-replacement.ts';
import { createSigningGate } from './signing-gate.ts';
import type { JournalMark, SignedTransaction } from './transaction-journal.ts';
import type {
  SendRequest,
  SentTransaction,
  TransactionSender,
  TransactionSenderDeps,
} from './transaction-sender-types.ts';
import { createTtlMemo } from './ttl-memo.ts';

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
  const nextNonceUnmined = createNextNonceLook({ journal, log });
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

  /**
   * Waits until one of the candidates (same nonce) is mined and deep enough; replaces when stuck. `before`: a
   * stage write still in flight, awaited before the mined stage's write.
   */
  async function waitForAny(
    req: SendRequest,
    candidates: SignedTransaction[],
    before?: Promise<void>,
  ): Promise<SentTransaction> {
    const client = clientFor(req.chainId);
    const depth = BigInt(Math.max(1, deps.confirmations(req.chainId)));
    const started = Date.now();
    let lastBroadcast = Date.now();
    let lastNonceCheck = Date.now();
    let minedReported = false;
    let capReached = false;
    // At the next nonce the node refused ours again after dropping it, or holds it unmined while it mines per
    // transaction: replace it without waiting to call it stuck.
    let replaceNow = false;
    for (;;) {
      // Taken before the receipt reads: a block mined after it wakes the wait below, none is missed.
      const seenHead = heads.head(req.chainId);
      for (const tx of candidates) {
        const receipt = await readReceipt(client, tx.hash);
        if (!receipt) continue;
        const mined: JournalMark = {
          stage: 'mined',
          hash: tx.hash,
          status: receipt.status === 'success' ? 'mined' : 'failed',
          block: receipt.blockNumber,
          index: receipt.transactionIndex,
        };
        // One block deep is deep enough: the receipt's first report carries the journal's mined mark.
        let marked = false;
        if (!minedReported) {
          minedReported = true;
          await before;
          if (req.recordStage) {
            marked = depth <= 1n;
            await req.recordStage('mined', tx.hash as Hex, marked ? mined : undefined);
          } else await req.onStage?.('mined', tx.hash as Hex);
        }
        // A receipt is one confirmation; deeper ones need the head, read fresh (viem caches the block
        // number for the client's polling interval, which would hold every send back that long).
        if (depth > 1n) {
          const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
          if (head - receipt.blockNumber + 1n < depth) break;
        }
        const held = !marked && req.holdMinedMark === true && mined.status === 'mined';
        if (!marked && !held) await journal.markMined(mined);
        crashPoint(`${req.purpose}:mined`);
        for (const other of candidates) {
          if (other.hash !== tx.hash) await journal.markReplaced(other.hash);
        }
        const sent = { hash: tx.hash as Hex, receipt, minedAt: await minedAt(client, receipt) };
        return held ? { ...sent, minedMark: mined } : sent;
      }
      // Not at every block: a nonce taken by another user of the key is an anomaly, and the check costs two
      // reads per waiting send.
      if (!minedReported && Date.now() - lastNonceCheck >= NONCE_TAKEN_CHECK_EVERY_MS) {
        lastNonceCheck = Date.now();
        const confirmedNonce = await checkNonceNotTaken(client, candidates);
        if (confirmedNonce === candidates[0]!.nonce) {
          const next = await nextNonceUnmined(client, candidates);
          if (next === 'resent') lastBroadcast = Date.now();
          if (next === 'replace') replaceNow = true;
        }
      }
      if (Date.now() - started > waitPerAttemptMs) {
        throw new TransactionPendingError(`transaction ${candidates.at(-1)?.hash} is not final yet`, {
          details: {
            chainId: req.chainId,
            nonce: candidates[0]?.nonce,
            hashes: candidates.map((c) => c.hash),
          },
        });
      }
      const latest = candidates.at(-1)!;
      const stuck =
        replaceNow || Date.now() - (latest.broadcastAt?.getTime() ?? lastBroadcast) > stuckAfterMs;
      if (!minedReported && !capReached && stuck && candidates.length <= MAX_REPLACEMENTS) {
        const replacement = await signReplacement(req.account, latest);
        if (replacement) {
          replaceNow = false;
          candidates.push(replacement);
          await broadcast(journal, client, replacement);
          candidates[candidates.length - 1] = { ...replacement, broadcastAt: new Date() };
          lastBroadcast = Date.now();
          continue;
        }
        capReached = true;
        log.warn('a stuck transaction cannot be replaced under the chain fee cap: it waits as signed', {
          chainId: req.chainId,
          nonce: latest.nonce,
          hash: latest.hash,
        });
      }
      if (!minedReported && Date.now() - lastBroadcast > REBROADCAST_EVERY_MS) {
        await broadcast(journal, client, latest);
        lastBroadcast = Date.now();
      }
      await heads.waitPast(req.chainId, seenHead, pollMs);
    }
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
