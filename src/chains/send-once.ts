import type { Address, Hex, PublicClient } from 'viem';
import { sendRaw } from './broadcast-transaction.ts';
import { crashPoint } from './debug-crash-point.ts';
import type { SignNewTransaction } from './sign-new-transaction.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';
import type { SendRequest, SentTransaction } from './transaction-sender-types.ts';
import type { WaitForReceipt } from './wait-for-receipt.ts';

/** Sends (or resumes) the transaction for this purpose and returns once it is mined and deep enough. */
export type SendOnce<Row> = (req: SendRequest<Row>) => Promise<SentTransaction>;

export interface SendOnceDeps<Row> {
  journal: TransactionJournal<Row>;
  clientFor(chainId: number): PublicClient;
  /** The journaled transactions of this intent (or, without one, the key's unconfirmed ones) for the purpose. */
  journaled(req: {
    intentId?: string;
    purpose: string;
    chainId: number;
    from?: Address;
  }): Promise<SignedTransaction[]>;
  /** Adds the key to those a restore of lost transactions looks at. */
  keyUsed(address: string): void;
  signNew: SignNewTransaction<Row>;
  waitForAny: WaitForReceipt;
}

export function createSendOnce<Row>(deps: SendOnceDeps<Row>): SendOnce<Row> {
  const { journal, signNew, waitForAny } = deps;

  /**
   * Hands the newest candidate to the node and writes (or has the caller write) its broadcast mark.
   * `written`: the caller's stage write still in flight (`recordStage`), to be awaited before the mined
   * stage's (wrapped: an async function's result would wait for it).
   */
  async function sendAndMark(
    req: SendRequest<Row>,
    client: PublicClient,
    latest: SignedTransaction,
  ): Promise<{ written?: Promise<void> }> {
    await sendRaw(client, latest);
    if (req.recordStage) {
      // The first receipt read goes out beside the broadcast stage's write (one round trip sooner); the
      // write is awaited before the mined stage's, so the two commit in their order.
      const broadcastWritten = req.recordStage('broadcast', latest.hash as Hex, {
        stage: 'broadcast',
        hash: latest.hash,
      });
      broadcastWritten.catch(() => undefined);
      return { written: broadcastWritten };
    }
    if (req.holdBroadcastMark && req.onStage) {
      // In the pool, its mark not written: the journal's row is still `signed`.
      crashPoint(`${req.purpose}:sent`);
      // The caller writes the mark with its own stage write (the fill's: the destination step journaled
      // in the mark's statement, so it reads the fill as broadcast).
      await req.onStage('broadcast', latest.hash as Hex, { stage: 'broadcast', hash: latest.hash });
      return {};
    }
    // The mark is issued first and the caller's stage work beside it: on one connection the mark commits
    // before anything the stage work then writes or reads, one round trip sooner than awaiting the mark
    // first.
    const marked = journal.markBroadcast({ hash: latest.hash });
    await Promise.all([marked, req.onStage?.('broadcast', latest.hash as Hex)]);
    return {};
  }

  return async function sendOnce(req) {
    deps.keyUsed(req.account.address);
    const existing = req.journaled ?? (await deps.journaled({ ...req, from: req.account.address }));
    const done = existing.find((t) => t.status === 'mined' || t.status === 'failed');
    if (done) return waitForAny(req, [done]);
    let candidates = existing.filter((t) => t.status === 'signed' || t.status === 'broadcast');
    const client = deps.clientFor(req.chainId);
    if (candidates.length === 0) {
      const signed = await signNew(req);
      // A `signedRow` was written with the record.
      if (req.recordStage && !req.signedRow) await req.recordStage('signed', signed.hash as Hex, undefined);
      else if (!req.recordStage) await req.onStage?.('signed', signed.hash as Hex);
      crashPoint(`${req.purpose}:signed`);
      candidates = [signed];
    }
    // Resumed or new: (re-)broadcast the newest as stored; never re-signed with another nonce.
    const { written: broadcastWritten } = await sendAndMark(req, client, candidates.at(-1)!);
    crashPoint(`${req.purpose}:broadcast`);
    try {
      return await waitForAny(req, candidates, broadcastWritten);
    } finally {
      // Its failure is this send's even when the wait ended first (e.g. not mined within the attempt).
      await broadcastWritten;
    }
  };
}
