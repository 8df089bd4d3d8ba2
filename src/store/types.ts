/**
 * The storage port: the only way the rest of Switchyard reads or writes the database. It is narrow
 * on purpose (just what the API and the engine need) and grouped by concern. Two adapters implement
 * it through Kysely: better-sqlite3 (embedded default) and PostgreSQL; their differences are the
 * `capabilities` flags, never dialect checks at call sites.
 *
 * Conventions: amounts are bigint base units; times are `Date`; addresses and hashes are returned
 * lowercase (callers checksum for display); every read of an intent is scoped to a project.
 */
import type {
  JournalMark,
  SignedTransaction,
  SignedTransactionStatus,
  SignTransactionInput,
  TransactionJournal,
} from '../chains/transaction-journal.ts';

export type { SignedTransaction, SignedTransactionStatus, SignTransactionInput };

export const INTENT_STATUSES = [
  'QUOTED',
  'COMMITTED',
  'EXECUTING',
  'SUCCEEDED',
  'FAILED',
  'REFUNDED',
  'ABORTED',
  'INVALID',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const TRANSACTION_STATUSES = [
  'UNKNOWN',
  'PENDING',
  'RELAYING',
  'RELAYED',
  'MINING',
  'SUCCEEDED',
  'FAILED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The four transactions of a receipt, in receipt order. */
export const TRANSACTION_KINDS = ['deposit', 'origin', 'destination', 'refund'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** What differs between the two databases, decided once when the store is opened. */
export interface StoreCapabilities {
  readonly dialect: 'sqlite' | 'postgres';
  /** Row locks with `FOR UPDATE SKIP LOCKED`, so several workers can lease work concurrently. */
  readonly supportsSkipLocked: boolean;
  /** `LISTEN/NOTIFY`, so waiters in other processes wake on a change. */
  readonly supportsListenNotify: boolean;
  /** Several processes may write at once (Postgres); SQLite has one writer at a time. */
  readonly supportsConcurrentWriters: boolean;
  /** Writes inside WITH (`WITH … UPDATE … RETURNING` feeding an INSERT), so related writes share one statement. */
  readonly supportsDataModifyingWith: boolean;
  /** Rows of another table as a JSON array in one column (`json_agg`), so a parent and its children are one read. */
  readonly supportsJsonAggregation: boolean;
  /**
   * The step lease, and the completion that leases successors, return each leased step's intent row from
   * the same statement (LeasedStep.intent), so the step runner does not read it again.
   */
  readonly supportsLeaseWithIntent: boolean;
  /**
   * Reads by intent asked for in one event-loop turn share one statement (batched-read.ts): worth it where
   * a read is a round trip.
   */
  readonly batchesReads: boolean;
  /**
   * `OFFSET 0` fences a subquery: Postgres then probes a correlated EXISTS once per outer row by its index,
   * where it would otherwise join it, and a planner without statistics (a table autovacuum has not analyzed
   * yet) joins by scanning the inner table's every matching row per outer row. SQLite probes per row anyway,
   * and its OFFSET needs a LIMIT.
   */
  readonly fencesSubqueries: boolean;
}

// ---------------------------------------------------------------- projects and keys

export interface Project {
  id: number;
  name: string;
  createdAt: Date;
}

export interface AccessKey {
  id: number;
  projectId: number;
  /** The first characters of the key, safe to show in listings and logs. */
  prefix: string;
  label: string | null;
  rateLimitPerMinute: number;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface CreatedAccessKey {
  /** The plaintext key. It is returned here once and never stored. */
  key: string;
  accessKey: AccessKey;
}

export interface ProjectsRepo {
  /** Creates a project; a taken name is ProjectExistsError. */
  create(name: string): Promise<Project>;
  findByName(name: string): Promise<Project | undefined>;
  findById(id: number): Promise<Project | undefined>;
  /** Returns the project with this name, creating it if missing (devnet start-up, CLI). */
  ensure(name: string): Promise<Project>;
}

export interface AccessKeysRepo {
  create(input: {
    projectId: number;
    label?: string;
    rateLimitPerMinute?: number;
  }): Promise<CreatedAccessKey>;
  /** The live key for this plaintext (looked up by its SHA-256), or undefined when unknown or revoked. */
  resolve(key: string): Promise<AccessKey | undefined>;
  /** Every key of a project, revoked ones included, oldest first. */
  list(projectId: number): Promise<AccessKey[]>;
  /** Revokes a key of this project named by its id or its prefix; AccessKeyNotFoundError otherwise. */
  revoke(input: { projectId: number; idOrPrefix: string }): Promise<AccessKey>;
  /** Sets a key's rate limit (requests per minute); undefined when no key has this id. */
  setRateLimit(input: { id: number; rateLimitPerMinute: number }): Promise<AccessKey | undefined>;
}

// ---------------------------------------------------------------- intents

export interface NewIntent {
  intentId: string;
  projectId: number;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  originIntentAddress: string;
  destinationIntentAddress: string;
  originTokenAddress: string;
  originTokenAmount: bigint;
  destinationTokenAddress: string;
  destinationTokenAmount: bigint;
  /** The intent exactly as sent on the wire in the quote (bigints already as decimal strings). */
  intent: unknown;
  /** The execution plan as src/intents/plan-codec.ts encodes it (the engine decodes it). */
  planJson?: string | null;
  quoteExpiresAt: Date;
  /** Defaults to now. */
  createdAt?: Date;
  /**
   * Transaction rows stored with the intent, in the same database transaction (a fresh quote's receipt
   * rows): one commit instead of one per row.
   */
  transactions?: Omit<TransactionUpsert, 'intentId'>[];
  /** A cross-chain intent's order as the solver sees it (solverInventory reads these). */
  solver?: SolverAmounts | undefined;
}

/** What a cross-chain intent asks of the solver: paid on the destination chain, repaid on the origin chain. */
export interface SolverAmounts {
  fillTokenAddress: string;
  fillAmount: bigint;
  repaymentTokenAddress: string;
  repaymentAmount: bigint;
}

export interface IntentRecord {
  /** Serial number, used by keyset pagination. */
  id: number;
  intentId: string;
  projectId: number;
  status: IntentStatus;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  originIntentAddress: string;
  destinationIntentAddress: string;
  originTokenAddress: string;
  originTokenAmount: bigint;
  destinationTokenAddress: string;
  destinationTokenAmount: bigint;
  intent: unknown;
  /** The encoded execution plan; null when the intent was stored without one. */
  planJson: string | null;
  quoteExpiresAt: Date;
  committedAt: Date | null;
  executeDeadline: Date | null;
  /**
   * The deposit hash ExecuteIntent named when it started the intent: a claim (possibly not mined then), which
   * the engine checks before it shows it on the deposit row. Search matches the row, never this.
   */
  depositTransactionHash: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface IntentTransactionRecord {
  id: number;
  intentId: string;
  kind: TransactionKind;
  chainId: number;
  fromAddress: string | null;
  toAddress: string | null;
  tokenAddress: string | null;
  tokenAmount: bigint | null;
  status: TransactionStatus;
  statusReason: string | null;
  txnHash: string | null;
  calldata: string | null;
  minedAt: Date | null;
  /** Free-form extras of the wire transaction (metaTxnId, precondition, depositIntentEntry…). */
  meta: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An intent as a receipt or a history entry holds it: every column but the plan, which no answer shows. */
export type ReceiptIntent = Omit<IntentRecord, 'planJson'>;

/** An intent with its transactions (at most one per kind), as GetIntentReceipt needs it. */
export interface IntentReceiptRecord {
  /** A receipt read may leave the plan out. */
  intent: ReceiptIntent;
  transactions: Partial<Record<TransactionKind, IntentTransactionRecord>>;
}

export interface StatusUpdate {
  intentId: string;
  to: IntentStatus;
  /** When the change happened; defaults to now. Sets startedAt (EXECUTING) and finishedAt (terminal). */
  at?: Date;
  committedAt?: Date;
  executeDeadline?: Date;
  depositTransactionHash?: string;
  /**
   * Receipt rows written with the move, their events before the status's (a step's last row, then the
   * intent's end). Each is written whether or not the status moves, and only from the statuses its `from`
   * allows; on Postgres in the move's own statement.
   */
  rowsBefore?: readonly RowAdvance[];
  /** As `rowsBefore`, their events after the status's (ExecuteIntent's EXECUTING, then the deposit's row). */
  rowsAfter?: readonly RowAdvance[];
  /**
   * Steps journaled with the move, as StepsRepo.enqueueAll journals them (leased to `enqueue.lease` when due
   * now, a step journaled before left as it is), whether or not the status moves: a repeat after a crash
   * between the two writes (SQLite) journals them then. On Postgres in the move's own statement, the leased
   * steps coming back with the intent's row as the move left it.
   */
  enqueue?: { steps: readonly { step: string; runAt?: Date }[]; lease?: StepLease };
  /**
   * The move happens only if the fill of `inventory.amount` fits in the solver's inventory (CommitIntent):
   * `balance - held >= amount`, `held` read in the move's own statement as SolverInventoryRepo.held reads it
   * (summed as `numeric`), and the result says `held`. Postgres only (`supportsDataModifyingWith`); not with
   * rows or steps.
   */
  inventory?: InventoryCheck;
}

/** A fill to fit in the solver's inventory of one token on one chain (StatusUpdate.inventory). */
export interface InventoryCheck {
  /** The journal purpose of fill transactions: a fill journaled mined or failed holds nothing more. */
  fillPurpose: string;
  chainId: number;
  tokenAddress: string;
  /** The solver's balance of the token there, read on-chain just before. */
  balance: bigint;
  /** What the fill takes. */
  amount: bigint;
}

export interface StatusUpdateResult {
  /** False when the move would go backwards (or stay put): nothing was written. */
  updated: boolean;
  /** The status now stored; undefined when the intent does not exist. */
  status: IntentStatus | undefined;
  /** With `enqueue`: the steps this call journaled leased to `enqueue.lease` (as StepsRepo.enqueueAll's). */
  leased?: LeasedStep[];
  /**
   * With `enqueue` on Postgres: how many of `rowsBefore` and `rowsAfter` the statement wrote (a row past the
   * write's `from` statuses is not). Undefined where the store does not say.
   */
  rowsWritten?: number;
  /** With `inventory`: what open orders hold of the token, as the move's statement read it. */
  held?: bigint;
}

export interface SearchIntentsFilter {
  /** The caller's project: every search is scoped to it. */
  projectId: number;
  byIntentId?: string;
  byTransactionHash?: string;
  byDepositTransactionHash?: string;
  byOwnerAddress?: string;
  byOriginIntentAddress?: string;
  byDestinationIntentAddress?: string;
  /** An intent id, an address (owner or either intent address) or a transaction hash. */
  byQueryString?: string;
}

export type PageColumn = 'id' | 'createdAt';
export type SortOrder = 'ASC' | 'DESC';

/**
 * The wire Page: the API hands `nextPage` back to the client and receives it again verbatim. A cursor
 * is the `id` of an intent and names the place right after that intent in the page's order (for either
 * column): `after` asks for the page that follows that place, `before` for the page that ends there.
 */
export interface Page {
  column?: string;
  before?: number;
  after?: number;
  sort?: { column: string; order: SortOrder | string }[];
  pageSize?: number;
  more?: boolean;
}

export interface IntentHistoryFilter {
  projectId: number;
  ownerAddress?: string;
  /**
   * Intents any of these addresses takes part in: as the owner, or as the recipient on the destination
   * chain (GetIntentHistory `byParticipantAddresses`). Empty or absent: no such filter.
   */
  participantAddresses?: string[];
  /** Takes precedence over `status`. */
  statuses?: IntentStatus[];
  status?: IntentStatus;
  originChainId?: number;
  destinationChainId?: number;
  /** The token the owner deposits and the one the route delivers, in any letter case. */
  originTokenAddress?: string;
  destinationTokenAddress?: string;
  /** Unix seconds, inclusive, on createdAt. */
  fromTime?: number;
  toTime?: number;
  page?: Page;
}

/** The next page in the direction of travel: `after` going forward, `before` going back. */
export type NextPage = Required<Pick<Page, 'column' | 'sort' | 'pageSize'>> & {
  more: true;
  after?: number;
  before?: number;
};

export interface IntentHistoryPage {
  intents: IntentReceiptRecord[];
  /** Absent on the last page (in the direction of travel): there are no more results. */
  nextPage?: NextPage;
}

/** A history page's intents without their receipts (GetIntentHistory with a receipt cache). */
export interface IntentHistoryIndex {
  intents: { id: number; intentId: string; status: IntentStatus }[];
  nextPage?: NextPage;
}

export interface IntentsRepo {
  /** Stores a new QUOTED intent. */
  insert(input: NewIntent): Promise<IntentRecord>;
  /** The intent of this project, or undefined (another project's intent is not found). */
  get(input: { projectId: number; intentId: string }): Promise<IntentRecord | undefined>;
  /** Unscoped read, for the engine only. */
  getForEngine(intentId: string): Promise<IntentRecord | undefined>;
  /**
   * Moves the status forward only; enforced in the UPDATE's WHERE clause. Receipt rows given with it
   * (`rowsBefore`, `rowsAfter`) are written with it, in event order.
   */
  updateStatus(update: StatusUpdate): Promise<StatusUpdateResult>;
  /**
   * RetryIntent's one move back: a FAILED intent becomes EXECUTING again (no longer finished), with the
   * replacement deposit's hash. Guarded by `status = FAILED` in the UPDATE's WHERE clause, so two retries
   * (or a retry racing anything else) move it once; false when it was not FAILED.
   */
  reopenFailed(input: { intentId: string; depositTransactionHash: string; at?: Date }): Promise<boolean>;
  /** Intent plus its transactions in two queries. */
  /**
   * Its `intent.intent` holds only the wire intent's ReceiptWireFields (receipt-fields.ts), all a receipt
   * shows; `get` returns the whole wire intent.
   */
  getReceipt(input: { projectId: number; intentId: string }): Promise<IntentReceiptRecord | undefined>;
  /** Filters AND-ed; [] when nothing matches. At most MAX_SEARCH_RESULTS, newest first. */
  search(filter: SearchIntentsFilter): Promise<IntentRecord[]>;
  /** Keyset pages over the project's intents with their receipts. */
  history(filter: IntentHistoryFilter): Promise<IntentHistoryPage>;
  /** The same page as `history` (same filter, same nextPage), with each intent's id and status only. */
  historyIndex(filter: IntentHistoryFilter): Promise<IntentHistoryIndex>;
  /**
   * The receipts of several intents of a project, in the order asked (two queries); unknown intents
   * and other projects' intents are left out.
   */
  getReceipts(input: { projectId: number; intentIds: string[] }): Promise<IntentReceiptRecord[]>;
  /**
   * Intents in these statuses, oldest first; with `afterId`, only those stored after the intent of that
   * `id` (a scan in pages: the deposit watcher).
   */
  listByStatus(statuses: IntentStatus[], limit: number, afterId?: number): Promise<IntentRecord[]>;
  /**
   * QUOTED intents on this origin chain whose origin intent address is one of `addresses` (any case): the
   * quotes a batch of token transfers paid (the engine's watch of deposits made without a commit).
   */
  quotedAtAddresses(input: { originChainId: number; addresses: string[] }): Promise<IntentRecord[]>;
  /**
   * QUOTED intents depositing `originTokenAddress`, made after `createdAfter`, ordered by (createdAt, id),
   * after the intent `after` (a scan in pages), at most `limit`.
   */
  listRecentQuoted(input: {
    originTokenAddress: string;
    createdAfter: Date;
    after?: { createdAt: Date; id: number };
    limit: number;
  }): Promise<IntentRecord[]>;
}

/**
 * A receipt row's conditional move: written unless its stored status is not one of `from`. A journal mark
 * given with it is written with it, whether or not the row moves (as `TransactionsRepo.advance`'s).
 */
export type RowAdvance = TransactionUpsert & {
  from: readonly TransactionStatus[];
  journalMark?: JournalMark;
};

export interface TransactionUpsert {
  intentId: string;
  kind: TransactionKind;
  chainId: number;
  status: TransactionStatus;
  fromAddress?: string | null;
  toAddress?: string | null;
  tokenAddress?: string | null;
  tokenAmount?: bigint | null;
  statusReason?: string | null;
  txnHash?: string | null;
  calldata?: string | null;
  minedAt?: Date | null;
  meta?: Record<string, unknown> | null;
}

export interface TransactionsRepo {
  /** Inserts or updates the (intent, kind) row; fields left undefined keep their stored value. */
  upsert(input: TransactionUpsert): Promise<IntentTransactionRecord>;
  /**
   * Inserts the (intent, kind) row, or updates it only while its status is one of `from`, in one statement
   * (a read then an upsert lets a concurrent writer's newer status be overwritten). Undefined when the row
   * was left as it was.
   */
  advance(
    input: TransactionUpsert & {
      from: readonly TransactionStatus[];
      /**
       * Update only a row that has no meta yet: meta written this way is never replaced (the gasless
       * deposit authorization, verified once). An insert is not affected.
       */
      onlyWithoutMeta?: boolean;
      /**
       * The sender's journal mark at the same stage of the same send, written with the row: in the same
       * statement where the store can (a data-modifying WITH on Postgres), else just before it. The mark
       * applies whether or not the row moves (the journal records the transaction; the receipt shows it).
       */
      journalMark?: JournalMark;
    },
  ): Promise<IntentTransactionRecord | undefined>;
  list(intentId: string): Promise<IntentTransactionRecord[]>;
}

// ---------------------------------------------------------------- engine

export type StepState = 'pending' | 'running' | 'done' | 'failed';

export interface IntentStep {
  id: number;
  intentId: string;
  step: string;
  state: StepState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  /**
   * Set by `leaseDue` when this lease replaced another worker's that had run out (the step was still
   * `running`): that worker's id. Null when the step was leased from `pending`.
   */
  takenOverFrom: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A step leased to a worker. `intent` is its intent's row (as IntentsRepo.getForEngine maps it), read by the
 * statement that took the lease when the store can (StoreCapabilities.supportsLeaseWithIntent); absent,
 * the caller reads it.
 */
export interface LeasedStep extends IntentStep {
  intent?: IntentRecord;
}

/** A lease a worker takes on the steps it journals: they run at once, in its process. */
export interface StepLease {
  owner: string;
  /** How long the lease lasts unless renewed (ms). */
  leaseMs: number;
}

export interface StepsRepo {
  /** Adds a step to the journal; a step already journaled for this intent is left as it is. */
  enqueue(input: { intentId: string; step: string; runAt?: Date }): Promise<IntentStep>;
  /**
   * Journals several steps of one intent in one statement (each at its `runAt`, default now); a step already
   * journaled is left as it is. With `lease` the steps due now (no `runAt`, or one not in the future) are
   * journaled leased to `lease.owner` (running, one attempt counted, until now + leaseMs) and come back, for
   * the worker to run without leasing them again, with their intent's row where the store reads it in the
   * same statement (StoreCapabilities.supportsLeaseWithIntent); the rest stay pending, and a step journaled
   * before is not returned. Without `lease` nothing comes back.
   *
   * `journalMark`: a send's journal mark written with the steps (the fill's broadcast mark with the
   * destination step it journals: `SendRequest.holdBroadcastMark`), in their statement on Postgres, so the
   * steps never run before the mark; elsewhere the mark first, then the steps.
   */
  enqueueAll(input: {
    intentId: string;
    steps: readonly { step: string; runAt?: Date }[];
    lease?: StepLease;
    journalMark?: JournalMark;
  }): Promise<LeasedStep[]>;
  /**
   * Leases up to `limit` due steps (pending, or running with an expired lease) to `owner` until
   * `now + leaseMs`, counting an attempt. Concurrent callers get disjoint steps (SKIP LOCKED on
   * Postgres, the single writer on SQLite).
   */
  leaseDue(input: { owner: string; limit: number; leaseMs: number; now?: Date }): Promise<LeasedStep[]>;
  /**
   * Extends the leases `owner` still holds on these running steps to `now + leaseMs` (the runner's
   * heartbeat: a live worker keeps its steps, a killed one's expire after one short lease).
   */
  renew(input: { ids: number[]; owner: string; leaseMs: number; now?: Date }): Promise<number>;
  /**
   * Marks a leased step done, journaling `enqueue.steps` (its successors) in the same transaction; `done` is
   * false when the lease was lost to another worker (the successors are journaled either way). With
   * `enqueue.leaseMs` the successors this call journals are leased to `owner` at once (running, one attempt
   * counted, until now + leaseMs) and come back in `leased`, for the worker to run without leasing them
   * again; a successor journaled before is left as it is and not returned.
   */
  complete(input: {
    id: number;
    owner: string;
    /** `steps` journaled due now (leased to `owner` with `leaseMs`), `later` pending until their `runAt`. */
    enqueue?: {
      intentId: string;
      steps: string[];
      leaseMs?: number;
      later?: { step: string; runAt: Date }[];
    };
    /**
     * A receipt row's move that commits with the completion, as `transactions.advance` moves it, with the
     * journal mark it carries: in the same statement on Postgres, just before it elsewhere. Written whether
     * or not the step was still leased to `owner`, as the successors are.
     */
    row?: RowAdvance;
    /**
     * The intent's status move that commits with the completion (a step that ends the intent), as
     * `intents.updateStatus` moves it: its rows and their journal marks, then the status, the NOTIFY sent
     * when anything moved; with `row`, that row comes first. In the same statement on Postgres, just before
     * the completion elsewhere. Like `row`, moved whether or not the step was still leased to `owner`.
     */
    end?: StatusUpdate;
    /**
     * A send's journal mark without a receipt row of its own (the fill's mined mark, held by the sender:
     * `SendRequest.holdMinedMark`), written with the completion as `markMined` would write it alone: in
     * the same statement on Postgres, just before it elsewhere; whether or not the lease was lost.
     */
    journalMark?: JournalMark;
  }): Promise<{
    done: boolean;
    leased: LeasedStep[];
    /** With `end`: the intent's status moved to `end.to` (counted in the metrics as updateStatus's are). */
    ended?: boolean;
  }>;
  /** Records a failure: retry at `retryAt`, or give up (`failed`) when it is absent. */
  fail(input: { id: number; owner: string; error: string; retryAt?: Date }): Promise<boolean>;
  /**
   * Journals a step to run again (RetryIntent): a `done` or `failed` step becomes pending at `runAt` (default
   * now) with no attempts and no error; one pending or running is left as it is; an absent one is added.
   */
  requeue(input: { intentId: string; step: string; runAt?: Date }): Promise<void>;
  /**
   * Hands back steps `owner` still holds (a worker stopping before they finished): pending and due now, no
   * lease, so another worker leases them at once instead of after their lease runs out. Returns the intent of
   * each step handed back (one entry per step; none when `owner` held none of them).
   */
  release(input: { ids: number[]; owner: string; now?: Date }): Promise<string[]>;
  /** The workers holding a lease on a running step, whether or not it has run out. */
  leaseOwners(): Promise<string[]>;
  /**
   * Ends now the leases `owners` hold on running steps (workers known to be dead), so that any worker takes
   * those steps over at its next lease, as after a lease that ran out. Returns the intent of each such step.
   */
  endLeases(input: { owners: string[]; now?: Date }): Promise<string[]>;
  list(intentId: string): Promise<IntentStep[]>;
}

/** Who holds a task's lease, and until when. */
export interface TaskLease {
  task: string;
  owner: string;
  leaseUntil: Date;
}

/**
 * Leases on work that is not an intent's step (the deposit watcher's rounds, a chain's restore, the solver's
 * approve of a token), so that of several workers one does it, and another takes over when the holder dies
 * (stops renewing). One row per task; the same clock convention as step leases (each process's clock).
 */
export interface TaskLeasesRepo {
  /**
   * Takes the task until `now + leaseMs` when nobody holds it, its lease ran out, or `owner` already holds
   * it (a renewal); true when `owner` holds it afterwards. Concurrent callers: exactly one wins.
   */
  acquire(input: { task: string; owner: string; leaseMs: number; now?: Date }): Promise<boolean>;
  /** Gives the task up if `owner` holds it, so another worker can take it at once; true if it did. */
  release(input: { task: string; owner: string }): Promise<boolean>;
  /** The task's lease row, expired or not (undefined: never taken, or released). */
  get(task: string): Promise<TaskLease | undefined>;
  /** The workers holding a task's lease, whether or not it has run out. */
  leaseOwners(): Promise<string[]>;
  /** Ends now the task leases `owners` hold (workers known to be dead); how many it ended. */
  endLeases(input: { owners: string[]; now?: Date }): Promise<number>;
}

export interface NoncesRepo {
  /**
   * The next nonce for (chain, address), consecutive across processes. `floor` is the chain's
   * pending nonce: allocation never goes below it (first use, or an account used elsewhere).
   */
  allocate(input: { chainId: number; address: string; floor?: number }): Promise<number>;
  /** The nonce the next allocation would return, without taking it. */
  peek(input: { chainId: number; address: string }): Promise<number | undefined>;
}

/** The journal of signed transactions the chain sender writes (src/chains/transaction-journal.ts). */
/** The journal, whose new signatures may carry the send's receipt row (SignTransactionInput.withRecord). */
export type SignedTransactionsRepo = TransactionJournal<RowAdvance>;

// ---------------------------------------------------------------- retention

export interface ExpiredQuotesRepo {
  /**
   * Deletes up to `limit` quotes that were never committed and whose quote expired before `expiredBefore`,
   * oldest first, with their receipt rows; answers how many went. A quote anything happened to (a step, a
   * signed transaction, a transaction hash on a receipt row) is kept (expired-quotes.ts, `deletableQuote`).
   * Safe to run in several processes at once: no quote is deleted twice, and none is waited for.
   */
  deleteExpired(input: { expiredBefore: Date; limit: number }): Promise<number>;
}

// ---------------------------------------------------------------- the solver's inventory

/** An amount of one token on one chain (base units). */
export interface TokenAmount {
  chainId: number;
  /** Lower-case. */
  tokenAddress: string;
  amount: bigint;
}

/**
 * What the intents in the store ask of the solver's inventory, summed per chain and token. The engine's
 * names of the fill transaction and the settle step are given by the caller (src/solver/), so the store
 * keeps no engine vocabulary.
 */
export interface SolverInventoryRepo {
  /**
   * Held by open orders: the fill amounts of COMMITTED and EXECUTING intents whose fill has not landed (no
   * journaled `fillPurpose` transaction of theirs is mined or failed), per destination chain and token.
   */
  held(input: { fillPurpose: string; chainId?: number; tokenAddress?: string }): Promise<TokenAmount[]>;
  /**
   * Owed by pending settlements: the repayment amounts of intents whose `settleStep` is journaled and not
   * done yet (the fill landed; the OriginSettler has not repaid the solver), per origin chain and token.
   */
  owed(input: { settleStep: string }): Promise<TokenAmount[]>;
}

// ---------------------------------------------------------------- gauges

/** Counts an operator watches (the Prometheus gauges), across every project. */
export interface GaugesRepo {
  /** Stored intents per status; a status no intent has is absent. */
  intentsByStatus(): Promise<Partial<Record<IntentStatus, number>>>;
  /**
   * Steps a worker's lease would take now (pending, or running under an expired lease, and due), and steps
   * running under a live lease.
   */
  steps(now?: Date): Promise<{ due: number; leased: number }>;
}

// ---------------------------------------------------------------- event log

/** The transaction statuses of a receipt after a change, as WaitIntentReceipt reports them. */
export interface ReceiptStatesRecord {
  deposit: TransactionStatus;
  origin: TransactionStatus;
  destination: TransactionStatus;
  /** Null while the intent has no refund row. */
  refund: TransactionStatus | null;
}

/**
 * One change of an intent's status or of a receipt row's status, written by the database in the same
 * transaction as the change (migration 0009).
 */
export interface IntentEventRecord {
  projectId: number;
  /** The project's event number: 1, 2, 3… in commit order, never reused. */
  seq: number;
  intentId: string;
  ownerAddress: string;
  /** The receipt row whose status changed; null when the intent's status changed. */
  transactionKind: TransactionKind | null;
  /** The intent's status after the change. */
  status: IntentStatus;
  receiptStates: ReceiptStatesRecord;
  /** The changed receipt row's chain and transaction hash (null for a status change, or no hash yet). */
  chainId: number | null;
  txnHash: string | null;
  createdAt: Date;
}

export interface EventLogRepo {
  /** The project's events numbered above `after`, in order, at most `limit`. */
  listAfter(input: { projectId: number; after: number; limit: number }): Promise<IntentEventRecord[]>;
  /** The project's last event number; 0 before its first event. */
  latest(projectId: number): Promise<number>;
  /**
   * The number just before the project's first kept event created at or after `since` (so `listAfter` from it
   * starts there), and whether events before `since` may have been deleted already (nothing older is kept).
   */
  positionAt(input: { projectId: number; since: Date }): Promise<{ after: number; truncated: boolean }>;
  /**
   * Deletes up to `limit` events created before `before`, oldest first within each project; answers how many
   * went. Several processes may run it at once (rows another is deleting are skipped on Postgres).
   */
  deleteOlderThan(input: { before: Date; limit: number }): Promise<number>;
}

// ---------------------------------------------------------------- webhooks

export type WebhookEndpointState = 'active' | 'failing';

export interface WebhookEndpoint {
  id: number;
  projectId: number;
  url: string;
  /**
   * The signing secret (HMAC-SHA256 key), decrypted when it is stored encrypted (WEBHOOK_SECRETS_KEY). Shown
   * once when the endpoint is added. Throws WebhookSecretUnreadableError when this process cannot decrypt it;
   * read only where the secret is used, so listing or leasing endpoints never needs the key.
   */
  readSecret(): string;
  /** Event types and `prefix.*` patterns; `['*']` for every event. */
  eventTypes: string[];
  /** `failing` once its retries ran out: nothing is sent until it is resumed or replayed. */
  state: WebhookEndpointState;
  /** The last event number handled: delivered, or not one the endpoint subscribes to. */
  handledSeq: number;
  /** Failed attempts at the event after `handledSeq`. */
  attempts: number;
  /** When the current run of failures began; null while deliveries succeed. */
  failingSince: Date | null;
  nextAttemptAt: Date;
  createdAt: Date;
}

export interface WebhookDeliveryInput {
  /** The event's number; 0 for a ping. */
  eventSeq: number;
  eventType: string;
  /** 1 for the first try of this event. */
  attempt: number;
  /** Null when no HTTP answer came. */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

export interface WebhookDelivery extends WebhookDeliveryInput {
  id: number;
  endpointId: number;
  /** A 2xx answer. */
  ok: boolean;
  createdAt: Date;
}

export interface SecretsEncrypted {
  /** Plain secrets now encrypted. */
  encrypted: number;
  /** Secrets the previous key opened, now under the configured key. */
  reencrypted: number;
  /** Secrets the configured key opened as `enc:v1:` (not bound to their endpoint), now `enc:v2:`. */
  upgraded: number;
  /** Endpoints whose encrypted secret neither key opens (left as they are). */
  unreadable: number[];
}

export interface WebhookEndpointInput {
  projectId: number;
  url: string;
  secret: string;
  eventTypes: string[];
}

export interface WebhooksRepo {
  /** A new active endpoint that starts after the project's latest event (it gets what happens next). */
  create(input: WebhookEndpointInput): Promise<WebhookEndpoint>;
  /** The project's endpoints, oldest first, each with its latest delivery attempt. */
  list(projectId: number): Promise<(WebhookEndpoint & { lastDelivery: WebhookDelivery | null })[]>;
  get(input: { projectId: number; id: number }): Promise<WebhookEndpoint | undefined>;
  /** Removes the endpoint and its delivery log; false when the project has no such endpoint. */
  remove(input: { projectId: number; id: number }): Promise<boolean>;
  /** Whether any project has an active endpoint (the dispatcher listens for changes only then). */
  anyActive(): Promise<boolean>;
  /**
   * Leases up to `limit` active endpoints that have events after their cursor and are due, to `owner` until
   * now + leaseMs. Concurrent callers get disjoint endpoints (SKIP LOCKED on Postgres, the single writer on
   * SQLite); an expired lease (a dead process) is taken over.
   */
  leaseDue(input: { owner: string; leaseMs: number; limit: number; now?: Date }): Promise<WebhookEndpoint[]>;
  /**
   * Moves the cursor of an endpoint `owner` still leases to `handledSeq` and extends the lease to now + leaseMs;
   * with `delivery`, records that attempt (a success) in the same transaction and clears the retry state.
   * False when the lease was lost (nothing is written).
   */
  advance(input: {
    id: number;
    owner: string;
    handledSeq: number;
    leaseMs: number;
    delivery?: WebhookDeliveryInput;
  }): Promise<boolean>;
  /**
   * Records a failed attempt of an endpoint `owner` leases and releases it: retried at `retryAt`, or marked
   * failing when `retryAt` is null. `failingSince` is when the run of failures began.
   */
  recordFailure(input: {
    id: number;
    owner: string;
    delivery: WebhookDeliveryInput;
    failingSince: Date;
    retryAt: Date | null;
  }): Promise<boolean>;
  /** Ends `owner`'s lease (nothing left to deliver, or shutting down). */
  release(input: { id: number; owner: string }): Promise<void>;
  /** The dispatchers holding an endpoint's lease, whether or not it has run out. */
  leaseOwners(): Promise<string[]>;
  /** Ends now the endpoint leases `owners` hold (dispatchers known to be dead); how many it ended. */
  endLeases(input: { owners: string[]; now?: Date }): Promise<number>;
  /** Records an attempt outside the dispatcher (a ping). */
  recordDelivery(input: { endpointId: number; delivery: WebhookDeliveryInput }): Promise<void>;
  /**
   * Sets the cursor to `handledSeq` and makes the endpoint active and due now (a replay, or a failing
   * endpoint resumed where it stopped when `handledSeq` is omitted). False when there is no such endpoint.
   */
  reactivate(input: { projectId: number; id: number; handledSeq?: number }): Promise<boolean>;
  /** The endpoint's latest delivery attempts, newest first. */
  deliveries(input: { endpointId: number; limit: number }): Promise<WebhookDelivery[]>;
  /**
   * Brings every secret to `enc:v2:` under the configured WEBHOOK_SECRETS_KEY: encrypts the ones stored
   * plain, rewrites the `enc:v1:` ones that key opens, and re-encrypts the ones the store's previous key
   * (WEBHOOK_SECRETS_PREVIOUS_KEY) opens. Answers how many of each (0 on a second run) and the endpoints
   * whose secret neither key opens. A ConfigError when the store was opened without the key.
   */
  encryptSecrets(): Promise<SecretsEncrypted>;
  /** Deletes up to `limit` delivery records older than `before`, oldest first; answers how many went. */
  deleteDeliveriesOlderThan(input: { before: Date; limit: number }): Promise<number>;
}

// ---------------------------------------------------------------- change notifications

export type IntentListener = (intentId: string) => void;

/** A new intent was stored: what a cache of history pages needs to drop the pages it may join. */
export interface IntentInserted {
  projectId: number;
  /** Lower-case, as stored. */
  ownerAddress: string;
}
export type InsertListener = (insert: IntentInserted) => void;

/**
 * Wakes long-polling waiters when an intent's receipt may have changed. In-process on SQLite;
 * Postgres LISTEN/NOTIFY (one listening connection per process) so waiters on any process wake.
 * The store publishes after every status change and transaction upsert; on Postgres the publishing
 * process's own subscribers hear at once, and again when the NOTIFY arrives.
 */
export interface IntentEvents {
  subscribe(intentId: string, listener: IntentListener): () => void;
  /**
   * Every change of any intent, delivered like `subscribe`'s (the event log's readers: one subscription per
   * process wakes them all, instead of one per intent).
   */
  subscribeAll(listener: IntentListener): () => void;
  publish(intentId: string): Promise<void>;
  /**
   * Every insert of an intent, any project (the store publishes after each `intents.insert`;
   * delivered like `publish`: at once in the writing process, through NOTIFY to the others).
   */
  subscribeInserts(listener: InsertListener): () => void;
  publishInsert(insert: IntentInserted): Promise<void>;
  /**
   * Notifications may have been missed: on Postgres the listening connection dropped (called when
   * it drops, and again once it listens again). Anything kept because no notification said it
   * changed (the API's read caches) must be dropped. Never called on SQLite.
   */
  subscribeMissed(listener: () => void): () => void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- the store

export interface Store {
  readonly capabilities: StoreCapabilities;
  readonly projects: ProjectsRepo;
  readonly accessKeys: AccessKeysRepo;
  readonly intents: IntentsRepo;
  readonly transactions: TransactionsRepo;
  readonly steps: StepsRepo;
  readonly nonces: NoncesRepo;
  readonly signedTransactions: SignedTransactionsRepo;
  readonly expiredQuotes: ExpiredQuotesRepo;
  readonly solverInventory: SolverInventoryRepo;
  readonly gauges: GaugesRepo;
  readonly taskLeases: TaskLeasesRepo;
  /** The durable log of intent changes (the event stream's and the webhooks' source). */
  readonly eventLog: EventLogRepo;
  readonly webhooks: WebhooksRepo;
  readonly events: IntentEvents;
  /** A trivial round trip, for RuntimeStatus; resolves to the latency in ms or throws. */
  ping(): Promise<number>;
  close(): Promise<void>;
}
