import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import { crashPoint } from './debug-crash-point.ts';
import { withChainErrors } from './map-chain-error.ts';
import { minedAt } from './mined-at.ts';
import { readReceipt } from './read-receipt.ts';
import type { JournalMark, SignedTransaction, TransactionJournal } from './transaction-journal.ts';
import type { SendRequest, SentTransaction } from './transaction-sender-types.ts';

type MinedMark = Extract<JournalMark, { stage: 'mined' }>;

/** What one wait for a receipt holds while it looks at its candidates' receipts. */
export interface MinedLook {
  journal: TransactionJournal;
  client: PublicClient;
  /** The chain's confirmation depth (blocks, counting the one that includes the transaction; at least 1). */
  depth: bigint;
  /** A stage write still in flight, awaited before the mined stage's write. */
  before: Promise<void> | undefined;
  /** Set once the first receipt was reported to the caller: it is reported once per wait. */
  state: { minedReported: boolean };
}

/**
 * One look at the candidates' receipts: the first receipt is reported to the caller, and once it is deep
 * enough the journal is marked (unless the caller writes the mark) and the sent transaction returned;
 * undefined while none is mined or deep enough.
 */
export async function recordMinedIfDeep(
  look: MinedLook,
  req: SendRequest,
  candidates: SignedTransaction[],
): Promise<SentTransaction | undefined> {
  const { client, depth } = look;
  for (const tx of candidates) {
    const receipt = await readReceipt(client, tx.hash);
    if (!receipt) continue;
    const mined: MinedMark = {
      stage: 'mined',
      hash: tx.hash,
      status: receipt.status === 'success' ? 'mined' : 'failed',
      block: receipt.blockNumber,
      index: receipt.transactionIndex,
    };
    const marked = await reportMined(look, req, mined);
    // A receipt is one confirmation; deeper ones need the head, read fresh (viem caches the block
    // number for the client's polling interval, which would hold every send back that long).
    if (depth > 1n) {
      const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
      if (head - receipt.blockNumber + 1n < depth) return undefined;
    }
    return finish(look, req, candidates, receipt, mined, marked);
  }
  return undefined;
}

/**
 * Tells the caller of the wait's first receipt (its mined stage); true when that report carried the
 * journal's mined mark. One block deep is deep enough: the receipt's first report carries the journal's
 * mined mark.
 */
async function reportMined(look: MinedLook, req: SendRequest, mined: MinedMark): Promise<boolean> {
  if (look.state.minedReported) return false;
  look.state.minedReported = true;
  await look.before;
  if (!req.recordStage) {
    await req.onStage?.('mined', mined.hash as Hex);
    return false;
  }
  const marked = look.depth <= 1n;
  await req.recordStage('mined', mined.hash as Hex, marked ? mined : undefined);
  return marked;
}

/** Marks the mined transaction (unless its mark was written or is held for the caller), the others replaced. */
async function finish(
  look: MinedLook,
  req: SendRequest,
  candidates: SignedTransaction[],
  receipt: TransactionReceipt,
  mined: MinedMark,
  marked: boolean,
): Promise<SentTransaction> {
  const { journal } = look;
  const held = !marked && req.holdMinedMark === true && mined.status === 'mined';
  if (!marked && !held) await journal.markMined(mined);
  crashPoint(`${req.purpose}:mined`);
  for (const other of candidates) {
    if (other.hash !== mined.hash) await journal.markReplaced(other.hash);
  }
  const sent = { hash: mined.hash as Hex, receipt, minedAt: await minedAt(look.client, receipt) };
  return held ? { ...sent, minedMark: mined } : sent;
}
