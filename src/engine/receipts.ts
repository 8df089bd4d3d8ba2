/**
 * Receipt rows (intent_transactions) as the engine moves them: UNKNOWN → PENDING → RELAYING → RELAYED →
 * MINING → SUCCEEDED | FAILED. Every write goes through the store, which wakes WaitIntentReceipt waiters.
 */
import type { Hex } from 'viem';
import type { SendRequest, SendStage } from '../chains/create-transaction-sender.ts';
import type { JournalMark } from '../chains/transaction-journal.ts';
import type {
  RowAdvance,
  Store,
  TransactionKind,
  TransactionStatus,
  TransactionUpsert,
} from '../store/types.ts';

/** Receipt order of transaction statuses: a row never moves back (a resumed step re-reports stages). */
const ORDER: TransactionStatus[] = [
  'UNKNOWN',
  'PENDING',
  'RELAYING',
  'RELAYED',
  'MINING',
  'SUCCEEDED',
  'FAILED',
];

const STAGE_STATUS: Record<SendStage, TransactionStatus> = {
  signed: 'RELAYING',
  broadcast: 'RELAYED',
  mined: 'MINING',
};

export interface RowWrite extends Omit<TransactionUpsert, 'intentId' | 'kind' | 'status'> {
  status: TransactionStatus;
}

/**
 * Writes the row unless it is already past `status` (terminal rows are final), as one conditional statement:
 * two writers (ExecuteIntent's PENDING, the deposit step's SUCCEEDED) cannot move it back between a read
 * and a write. A sender's journal mark given with it is written with it (one statement on Postgres), and
 * whether or not the row moves.
 */
export async function writeRow(
  store: Store,
  intentId: string,
  kind: TransactionKind,
  write: RowWrite,
  journalMark?: JournalMark,
): Promise<void> {
  await store.transactions.advance(rowAdvance(intentId, kind, write, journalMark));
}

/** writeRow's move as the store takes it (a step's completion carries it: StepResult's `row`). */
export function rowAdvance(
  intentId: string,
  kind: TransactionKind,
  write: RowWrite,
  /** A send's journal mark the row's write carries (rowStages' held mined mark). */
  journalMark?: JournalMark,
): RowAdvance {
  return {
    intentId,
    kind,
    ...write,
    from: MAY_MOVE_TO.get(write.status)!,
    ...(journalMark && { journalMark }),
  };
}

/** Per target status, the stored statuses a row may move from: not final, not past the target. */
const MAY_MOVE_TO = new Map<TransactionStatus, TransactionStatus[]>(
  ORDER.map((to) => [to, ORDER.slice(0, ORDER.indexOf(to) + 1).filter((from) => !isFinal(from))]),
);

function isFinal(status: TransactionStatus): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

/**
 * The sender's stage writes (`SendRequest.recordStage`, `signedRow`) that walk the row through RELAYING →
 * RELAYED → MINING with the real hash. RELAYING is written with the new signature's record (one statement on
 * Postgres: `signedRow`); RELAYED and MINING each carry the journal's mark of their stage (broadcast, mined),
 * again one statement on Postgres instead of two. `calldata` is written from the broadcast on: from then it
 * is public, while a signed transaction not yet sent may carry an owner's authorization (a gasless permit)
 * that receipts must not show early.
 *
 * `holdMinedMark`: a transaction that succeeded at the depth asked for (the sender hands over the mined mark)
 * writes no MINING row; the mark is held (`heldMinedMark`) for the step's last row, which its completion
 * carries (one statement on Postgres), so the row goes from RELAYED to its final status. Only for a step
 * whose completion carries that row: a mark held and never written leaves the journal's row `broadcast`
 * until the step runs again.
 */
export function rowStages(
  store: Store,
  intentId: string,
  kind: TransactionKind,
  base: Omit<RowWrite, 'status' | 'txnHash' | 'calldata'>,
  calldata?: Hex,
  options: { holdMinedMark?: boolean } = {},
): Required<Pick<SendRequest<RowAdvance>, 'recordStage' | 'signedRow'>> & {
  heldMinedMark(): JournalMark | undefined;
} {
  const stageWrite = (stage: SendStage, hash: string): RowWrite => ({
    ...base,
    status: STAGE_STATUS[stage],
    txnHash: hash,
    ...(calldata && stage !== 'signed' && { calldata }),
  });
  let held: JournalMark | undefined;
  return {
    async recordStage(stage, hash, mark) {
      if (options.holdMinedMark && mark?.stage === 'mined' && mark.status === 'mined') {
        held = mark;
        return;
      }
      await writeRow(store, intentId, kind, stageWrite(stage, hash), mark);
    },
    signedRow: (hash) => rowAdvance(intentId, kind, stageWrite('signed', hash)),
    heldMinedMark: () => held,
  };
}
