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
 *
 * Its parts, each in its own file: send-once.ts (steps 1 and 4), sign-new-transaction.ts and fees-under-cap.ts
 * (2 and 3), wait-for-receipt.ts with record-mined.ts and the nonce looks (check-nonce-not-taken.ts,
 * notice-lost-transactions.ts, next-nonce-unmined.ts), sign-replacement.ts (5), rebroadcast-unconfirmed.ts
 * (start-up), exclusive-queue.ts and signing-gate.ts.
 */
import type { Address, PublicClient } from 'viem';
import { createNonceTakenCheck } from './check-nonce-not-taken.ts';
import { UnknownChainError } from './errors.ts';
import { createExclusiveQueue } from './exclusive-queue.ts';
import { createFeeCache } from './fee-cache.ts';
import { createFeesUnderCap } from './fees-under-cap.ts';
import { createHeadWatcher } from './head-watcher.ts';
import { createLatestBlockCache } from './latest-block-cache.ts';
import { createLocalTaskLeases } from './local-task-leases.ts';
import { createNextNonceLook } from './next-nonce-unmined.ts';
import { createLostNotice } from './notice-lost-transactions.ts';
import { createUnconfirmedRebroadcast } from './rebroadcast-unconfirmed.ts';
import { createLostTransactionRestorer } from './restore-lost-transactions.ts';
import { createSendOnce } from './send-once.ts';
import {
  NONCE_FLOOR_CACHE_MS,
  RECEIPT_POLL_INTERVAL_MS,
  STUCK_AFTER_MS,
  WAIT_PER_ATTEMPT_MS,
} from './sender-constants.ts';
import { createNewTransactionSigner } from './sign-new-transaction.ts';
import { createReplacementSigner } from './sign-replacement.ts';
import { createSigningGate } from './signing-gate.ts';
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
  const clientFor = (chainId: number): PublicClient => {
    const client = deps.clients.get(chainId);
    if (!client) throw new UnknownChainError(`no RPC client for chain ${chainId}`, { details: { chainId } });
    return client;
  };
  const latestBlocks = deps.latestBlocks ?? createLatestBlockCache(clientFor);
  const heads = createHeadWatcher(clientFor);
  const keysUsed = new Set((deps.operators ?? []).map((a) => a.toLowerCase()));
  const keyUsed = (address: string) => keysUsed.add(address.toLowerCase());
  const leases = deps.leases ?? createLocalTaskLeases();
  const gate = createSigningGate();
  const restorer = createLostTransactionRestorer({
    journal,
    clientFor,
    confirmations: deps.confirmations,
    operators: () => [...keysUsed],
    log,
    leases,
    ...(deps.timing?.pollIntervalMs !== undefined && {
      timing: { pollIntervalMs: deps.timing.pollIntervalMs },
    }),
  });
  const signNew = createNewTransactionSigner({
    journal,
    clientFor,
    feesUnderCap: createFeesUnderCap({
      maxFeePerGas: deps.maxFeePerGas,
      feeCache: createFeeCache(),
      latestBlocks,
      heads,
      log,
      waitPerAttemptMs,
      pollMs,
    }),
    // The chain's pending nonce per key: only a floor under the database's own count (a fresh database, a key
    // used elsewhere), so sends of one window share it.
    nonceFloors: createTtlMemo<string, number>(NONCE_FLOOR_CACHE_MS),
    gate,
  });
  const waitForAny = createReceiptWait({
    journal,
    clientFor,
    confirmations: deps.confirmations,
    heads,
    log,
    signReplacement: createReplacementSigner({ journal, log, maxFeePerGas: deps.maxFeePerGas, gate }),
    checkNonceNotTaken: createNonceTakenCheck({
      journal,
      noticeLost: createLostNotice({
        journal,
        keyUsed,
        restore: (chainId) => restorer.restore(chainId),
        log,
      }),
    }),
    nextNonceUnmined: createNextNonceLook({ journal, log }),
    stuckAfterMs,
    waitPerAttemptMs,
    pollMs,
  });

  async function journaled(req: { intentId?: string; purpose: string; chainId: number; from?: Address }) {
    const rows = req.intentId
      ? await journal.listForIntent(req.intentId)
      : await journal.listUnconfirmed({ chainId: req.chainId, fromAddress: req.from ?? '' });
    return rows.filter((t) => t.purpose === req.purpose && t.chainId === req.chainId);
  }

  return {
    sendOnce: createSendOnce({
      journal,
      clientFor,
      journaled,
      keyUsed,
      signNew,
      waitForAny,
    }),

    journaled: (req) => journaled(req),

    restoreLost: (chainId) => restorer.restore(chainId),

    stopRestoring: () => restorer.stop(),

    stopSigning: () => gate.stop(),

    exclusive: createExclusiveQueue(leases),

    rebroadcastUnconfirmed: createUnconfirmedRebroadcast({ journal, clientFor, log }),
  };
}
