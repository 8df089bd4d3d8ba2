/**
 * WaitIntentReceipt's hold: a call answers at once when the intent is in a terminal status or when its
 * receipt states differ from `lastReceiptStates` (or that is missing or empty); otherwise it is held until
 * the store publishes a change of this intent (`store.events`, LISTEN/NOTIFY on Postgres) that alters the
 * states, or until the hold time passes (then it answers with the states unchanged). The answer itself is
 * the caller's (`answer(record, caller)`: the API encodes the receipt). A held call costs one subscription
 * and a place in the shared hold timer's queue, no polling; both are released when the call ends, the
 * client disconnects or the services close.
 * bench/wait.ts measures 10,000 held calls (docs/benchmarks.md).
 */
import { performance } from 'node:perf_hooks';
import { type IntentReceiptRecord, isTerminal, type Store } from '../../store/index.ts';
import { IntentNotFoundError } from '../errors.ts';
import { sameStates, storedReceiptStates } from './receipt-states.ts';
import type { ReceiptWaiter, WaitCaller, WaitRequest } from './types.ts';

/**
 * How long (ms) the states an answer showed are kept to decide the same intent's next call without a read:
 * a client asks again as soon as it has an answer, so a second is ample.
 */
const ANSWERED_STATES_KEPT_MS = 1_000;

export interface WaitDeps<C extends WaitCaller, A> {
  store: Store;
  holdMs: number;
  /** Aborted by IntentServices.close(): every held call answers at once. */
  closing: AbortSignal;
  /** The answer of a call that ends with this record (the caller's encoding of the receipt). */
  answer(record: IntentReceiptRecord, caller: C): A;
}

/** What every held call of one waiter shares (one object, not a closure per call). */
interface Shared<C extends WaitCaller, A> {
  store: Store;
  answer(record: IntentReceiptRecord, caller: C): A;
  closing: AbortSignal;
  /** The held calls in the order they began; with one hold time that is also the order they time out. */
  held: Set<HeldCall<C, A>>;
  expiry: HoldExpiry;
  answered: AnsweredStates;
}

export function createReceiptWaiter<C extends WaitCaller, A>(deps: WaitDeps<C, A>): ReceiptWaiter<C, A> {
  const held = new Set<HeldCall<C, A>>();
  const shared: Shared<C, A> = {
    store: deps.store,
    answer: deps.answer,
    closing: deps.closing,
    held,
    expiry: new HoldExpiry(held, deps.holdMs),
    answered: new AnsweredStates(deps.store),
  };
  // One listener on the shared closing signal for all held calls: a listener per call made every
  // add/remove scan thousands of entries (and tripped Node's max-listeners warning at 11 calls).
  deps.closing.addEventListener('abort', () => {
    shared.answered.clear();
    for (const call of held) call.end();
  });
  return (request, caller) => new HeldCall(shared, request, caller).run();
}

/**
 * The receipt states each intent's last answer showed, while nothing has changed since. The client's next
 * call usually sends exactly those states back, and the read that would only find them unchanged (one per
 * answer, a round trip on Postgres) is skipped: the call holds at once. Any change of the intent, a possibly
 * missed notification, or ANSWERED_STATES_KEPT_MS drops the entry, and each entry serves one call.
 */
class AnsweredStates {
  /** By intent, oldest first (an entry kept again moves to the end): no timer per entry, 10,000 may be kept. */
  private readonly kept = new Map<string, { states: readonly string[]; keptAt: number }>();

  constructor(store: Store) {
    // One listener for every intent (not one per entry): a change drops what was kept of its intent.
    store.events.subscribeAll((intentId) => this.kept.delete(intentId));
    store.events.subscribeMissed(() => this.clear());
  }

  remember(intentId: string, states: readonly string[]): void {
    const now = performance.now();
    this.dropOlderThan(now - ANSWERED_STATES_KEPT_MS);
    this.kept.delete(intentId);
    this.kept.set(intentId, { states, keptAt: now });
  }

  /** The states last answered, if the intent has not changed since and they are recent; the entry is used up. */
  take(intentId: string): readonly string[] | undefined {
    const entry = this.kept.get(intentId);
    if (!entry) return undefined;
    this.kept.delete(intentId);
    return performance.now() - entry.keptAt <= ANSWERED_STATES_KEPT_MS ? entry.states : undefined;
  }

  clear(): void {
    this.kept.clear();
  }

  private dropOlderThan(limit: number): void {
    for (const [intentId, entry] of this.kept) {
      if (entry.keptAt > limit) return;
      this.kept.delete(intentId);
    }
  }
}

/** What the shared timer needs of a held call. */
interface Timed {
  readonly startedAt: number;
  readonly over: boolean;
  end(): void;
}

/**
 * The hold time-outs of all held calls on one timer: every call holds `holdMs`, so the oldest in `held`
 * (a Set keeps insertion order) always times out first. A Node timer per call was ~200 bytes and a
 * closure while held; this timer is re-armed for the next oldest call when it fires.
 */
class HoldExpiry {
  private timer: NodeJS.Timeout | undefined;
  private readonly held: Set<Timed>;
  private readonly holdMs: number;

  constructor(held: Set<Timed>, holdMs: number) {
    this.held = held;
    this.holdMs = holdMs;
  }

  /** A call began holding (it is already in `held`). */
  arm(): void {
    if (this.timer === undefined) this.schedule();
  }

  /** No call is held: no timer keeps the process alive. */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const oldest = this.held.values().next().value;
    if (!oldest) return;
    this.timer = setTimeout(
      () => this.fire(),
      Math.max(0, oldest.startedAt + this.holdMs - performance.now()),
    );
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const call of this.held) {
      if (call.startedAt + this.holdMs > now) break;
      call.end();
      // Ended calls leave `held` when they answer; until then they are skipped, not re-ended.
    }
    this.scheduleAfter(now);
  }

  /** Re-arms for the first call still holding after `now`. */
  private scheduleAfter(now: number): void {
    for (const call of this.held) {
      if (call.over) continue;
      this.timer = setTimeout(() => this.fire(), Math.max(0, call.startedAt + this.holdMs - now));
      return;
    }
  }
}

/**
 * One WaitIntentReceipt call, from its first read to its answer. A class (methods on the prototype) and
 * no async frame: with 10,000 calls held, every per-call closure, promise and timer shows in the server's
 * memory (docs/benchmarks.md). Held, a call is this object, its answer's promise, one store subscription
 * and one close listener on the response.
 */
class HeldCall<C extends WaitCaller, A> implements Timed {
  over = false;
  /** performance.now() (monotonic) when the call began. */
  readonly startedAt = performance.now();
  private readonly shared: Shared<C, A>;
  private readonly input: WaitRequest;
  private readonly caller: C;
  private dirty = false;
  private reading = false;
  private unsubscribe: (() => void) | undefined;
  private resolve: ((response: A) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;

  constructor(shared: Shared<C, A>, input: WaitRequest, caller: C) {
    this.shared = shared;
    this.input = input;
    this.caller = caller;
  }

  run(): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      // Subscribe before the first read so a change between the read and the hold is not missed.
      this.unsubscribe = this.shared.store.events.subscribe(this.input.intentId.toLowerCase(), () =>
        this.poke(),
      );
      this.shared.held.add(this);
      this.shared.expiry.arm();
      if (this.caller.onClientLeave) this.caller.onClientLeave(this);
      else this.caller.signal?.addEventListener('abort', this);
      // Subscribed already: a change after the answer either dropped the kept states or pokes this call.
      const answered = this.shared.answered.take(this.input.intentId.toLowerCase());
      const last = this.input.lastReceiptStates;
      const unchanged =
        answered !== undefined && last !== undefined && last.length > 0 && sameStates(answered, last);
      if (!unchanged || this.shared.closing.aborted) this.read();
    });
  }

  /** The intent changed. */
  poke(): void {
    this.dirty = true;
    if (!this.reading) this.read();
  }

  /** Time-out, client gone or services closing: answer with what the intent is now. */
  end(): void {
    this.over = true;
    if (!this.reading) this.read();
  }

  clientLeft(): void {
    this.end();
  }

  /** AbortSignal listener (contexts without onClientLeave). */
  handleEvent(): void {
    this.end();
  }

  private read(): void {
    this.reading = true;
    this.dirty = false;
    const { store } = this.shared;
    const intentId = this.input.intentId.toLowerCase();
    store.intents.getReceipt({ projectId: this.caller.projectId!, intentId }).then(
      (record) => this.answerOrHold(record),
      (error: unknown) => this.finish(undefined, error),
    );
  }

  private answerOrHold(record: IntentReceiptRecord | undefined): void {
    this.reading = false;
    try {
      this.decide(record);
    } catch (error) {
      this.finish(undefined, error);
    }
  }

  private decide(record: IntentReceiptRecord | undefined): void {
    if (!record) {
      this.finish(undefined, new IntentNotFoundError(this.input.intentId));
      return;
    }
    // Whether to hold is decided on the stored rows alone; the answer is built only to answer. Nothing of
    // the record stays alive while held (it is read again on wake-up).
    const last = this.input.lastReceiptStates;
    const hold =
      !isTerminal(record.intent.status) &&
      last !== undefined &&
      last.length > 0 &&
      sameStates(storedReceiptStates(record), last) &&
      !this.over &&
      !this.shared.closing.aborted;
    if (!hold) {
      const answer = this.shared.answer(record, this.caller);
      // A change that came while reading may already be past the record: then nothing is kept.
      if (!isTerminal(record.intent.status) && !this.dirty)
        this.shared.answered.remember(this.input.intentId.toLowerCase(), storedReceiptStates(record));
      this.finish(answer, undefined);
      return;
    }
    // A change or an end that came while reading: read again.
    if (this.dirty || this.over) this.read();
  }

  private finish(response: A | undefined, error: unknown): void {
    this.over = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.shared.held.delete(this);
    if (this.shared.held.size === 0) this.shared.expiry.disarm();
    if (!this.caller.onClientLeave) this.caller.signal?.removeEventListener('abort', this);
    const { resolve, reject } = this;
    this.resolve = undefined;
    this.reject = undefined;
    if (response !== undefined) resolve?.(response);
    else reject?.(error);
  }
}
