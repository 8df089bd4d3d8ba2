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
}

export interface StatusUpdateResult {
  /** False when the move would go backwards (or stay put): nothing was written. */
  updated: boolean;
  /** The status now stored; undefined when the intent does not exist. */
  status: IntentStatus | undefined;
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
  /** Moves the status forward only; enforced in the UPDATE's WHERE clause. */
  updateStatus(update: StatusUpdate): Promise<StatusUpdateResult>;
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
  createdAt: Date;
  updatedAt: Date;
}

export interface StepsRepo {
  /** Adds a step to the journal; a step already journaled for this intent is left as it is. */
  enqueue(input: { intentId: string; step: string; runAt?: Date }): Promise<IntentStep>;
  /**
   * Leases up to `limit` due steps (pending, or running with an expired lease) to `owner` until
   * `now + leaseMs`, counting an attempt. Concurrent callers get disjoint steps (SKIP LOCKED on
   * Postgres, the single writer on SQLite).
   */
  leaseDue(input: { owner: string; limit: number; leaseMs: number; now?: Date }): Promise<IntentStep[]>;
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
  }): Promise<{ done: boolean; leased: IntentStep[] }>;
  /** Records a failure: retry at `retryAt`, or give up (`failed`) when it is absent. */
  fail(input: { id: number; owner: string; error: string; retryAt?: Date }): Promise<boolean>;
  list(intentId: string): Promise<IntentStep[]>;
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
export type SignedTransactionsRepo = TransactionJournal;

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
  readonly events: IntentEvents;
  /** A trivial round trip, for RuntimeStatus; resolves to the latency in ms or throws. */
  ping(): Promise<number>;
  close(): Promise<void>;
}
