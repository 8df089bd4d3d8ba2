/**
 * A send's wait for its receipt: until one of the candidates (same nonce) is mined and as deep as the chain's
 * confirmation depth, looking once per new head. While none has a receipt it looks at the chain's nonce (taken
 * by another transaction, a gap the chain lost, ours next but not mined), replaces a stuck transaction at the
 * same nonce and re-broadcasts the latest now and then; each attempt waits at most WAIT_PER_ATTEMPT_MS.
 */
import type { PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { broadcast } from './broadcast-transaction.ts';
import type { CheckNonceNotTaken } from './check-nonce-not-taken.ts';
import { TransactionPendingError } from './errors.ts';
import type { HeadWatcher } from './head-watcher.ts';
import type { NextNonceUnmined } from './next-nonce-unmined.ts';
import { recordMinedIfDeep } from './record-mined.ts';
import { MAX_REPLACEMENTS, NONCE_TAKEN_CHECK_EVERY_MS, REBROADCAST_EVERY_MS } from './sender-constants.ts';
import type { SignReplacement } from './sign-replacement.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';
import type { SendRequest, SentTransaction } from './transaction-sender-types.ts';

/**
 * Waits until one of the candidates (same nonce) is mined and deep enough; replaces when stuck. `before`: a
 * stage write still in flight, awaited before the mined stage's write.
 */
export type WaitForReceipt = (
  req: SendRequest,
  candidates: SignedTransaction[],
  before?: Promise<void>,
) => Promise<SentTransaction>;

export interface WaitForReceiptDeps {
  journal: TransactionJournal;
  clientFor(chainId: number): PublicClient;
  /** Confirmation depth per chain id (blocks, counting the one that includes the transaction). */
  confirmations(chainId: number): number;
  heads: HeadWatcher;
  log: Logger;
  signReplacement: SignReplacement;
  checkNonceNotTaken: CheckNonceNotTaken;
  nextNonceUnmined: NextNonceUnmined;
  stuckAfterMs: number;
  waitPerAttemptMs: number;
  pollMs: number;
}

/** One wait's clocks (ms since the epoch) and flags. */
interface WaitState {
  started: number;
  lastBroadcast: number;
  lastNonceCheck: number;
  /** The first receipt was reported to the caller: no more nonce looks, replacements or re-broadcasts. */
  minedReported: boolean;
  /** The cap left no room for a replacement: the transaction waits as signed. */
  capReached: boolean;
  // At the next nonce the node refused ours again after dropping it, or holds it unmined while it mines per
  // transaction: replace it without waiting to call it stuck.
  replaceNow: boolean;
}

export function createReceiptWait(deps: WaitForReceiptDeps): WaitForReceipt {
  const { journal, heads, log } = deps;

  // Not at every block: a nonce taken by another user of the key is an anomaly, and the check costs two
  // reads per waiting send.
  async function lookAtNonce(client: PublicClient, candidates: SignedTransaction[], state: WaitState) {
    if (state.minedReported || Date.now() - state.lastNonceCheck < NONCE_TAKEN_CHECK_EVERY_MS) return;
    state.lastNonceCheck = Date.now();
    const confirmedNonce = await deps.checkNonceNotTaken(client, candidates);
    if (confirmedNonce !== candidates[0]!.nonce) return;
    const next = await deps.nextNonceUnmined(client, candidates);
    if (next === 'resent') state.lastBroadcast = Date.now();
    if (next === 'replace') state.replaceNow = true;
  }

  /** Replaces the latest candidate when it is stuck; true when a replacement went out. */
  async function replaceIfStuck(
    req: SendRequest,
    client: PublicClient,
    candidates: SignedTransaction[],
    state: WaitState,
  ): Promise<boolean> {
    const latest = candidates.at(-1)!;
    const stuck =
      state.replaceNow ||
      Date.now() - (latest.broadcastAt?.getTime() ?? state.lastBroadcast) > deps.stuckAfterMs;
    if (state.minedReported || state.capReached || !stuck || candidates.length > MAX_REPLACEMENTS) {
      return false;
    }
    const replacement = await deps.signReplacement(req.account, latest);
    if (replacement) {
      state.replaceNow = false;
      candidates.push(replacement);
      await broadcast(journal, client, replacement);
      candidates[candidates.length - 1] = { ...replacement, broadcastAt: new Date() };
      state.lastBroadcast = Date.now();
      return true;
    }
    state.capReached = true;
    log.warn('a stuck transaction cannot be replaced under the chain fee cap: it waits as signed', {
      chainId: req.chainId,
      nonce: latest.nonce,
      hash: latest.hash,
    });
    return false;
  }

  return async function waitForAny(req, candidates, before) {
    const client = deps.clientFor(req.chainId);
    const depth = BigInt(Math.max(1, deps.confirmations(req.chainId)));
    const state: WaitState = {
      started: Date.now(),
      lastBroadcast: Date.now(),
      lastNonceCheck: Date.now(),
      minedReported: false,
      capReached: false,
      replaceNow: false,
    };
    const look = { journal, client, depth, before, state };
    for (;;) {
      // Taken before the receipt reads: a block mined after it wakes the wait below, none is missed.
      const seenHead = heads.head(req.chainId);
      const sent = await recordMinedIfDeep(look, req, candidates);
      if (sent) return sent;
      await lookAtNonce(client, candidates, state);
      if (Date.now() - state.started > deps.waitPerAttemptMs) {
        throw new TransactionPendingError(`transaction ${candidates.at(-1)?.hash} is not final yet`, {
          details: {
            chainId: req.chainId,
            nonce: candidates[0]?.nonce,
            hashes: candidates.map((c) => c.hash),
          },
        });
      }
      const latest = candidates.at(-1)!;
      if (await replaceIfStuck(req, client, candidates, state)) continue;
      if (!state.minedReported && Date.now() - state.lastBroadcast > REBROADCAST_EVERY_MS) {
        await broadcast(journal, client, latest);
        state.lastBroadcast = Date.now();
      }
      await heads.waitPast(req.chainId, seenHead, deps.pollMs);
    }
  };
}
