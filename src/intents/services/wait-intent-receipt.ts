/**
 * WaitIntentReceipt: answers at once when the intent is in a terminal status (`done: true`) or when its
 * receiptStates differ from `lastReceiptStates` (or that is missing or empty); otherwise holds the call until
 * the store publishes a change of this intent (`store.events`, LISTEN/NOTIFY on Postgres) that alters the
 * states, or until the hold time passes (then 200 with `done: false`). A waiter costs one subscription and
 * a place in the shared hold timer's queue, no polling; both are released when the call ends, the client
 * disconnects or the services close.
 * bench/wait.ts measures 10,000 held calls (docs/benchmarks.md).
 */
import { performance } from 'node:perf_hooks';
import type { CallContext, Handler } from '../../api/context.ts';
import { NotFoundError } from '../../api/errors/rpc-errors.ts';
import { receiptToWire } from '../../api/methods/reads/to-wire.ts';
import type { MethodRequest, MethodResponse } from '../../api/schemas/methods.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { type IntentReceiptRecord, isTerminal, type Store } from '../../store/index.ts';
import { receiptInDialect, receiptStates, sameStates, storedReceiptStates } from './receipt-states.ts';

export interface WaitDeps {
  store: Store;
  chains: readonly ChainConfig[];
  holdMs: number;
  /** Aborted by IntentServices.close(): every held call answers at once. */
  closing: AbortSignal;
}

type WaitResponse = MethodResponse<'WaitIntentReceipt'>;
type WaitRequest = MethodRequest<'WaitIntentReceipt'>;

/** What every held call of one handler shares (one object, not a closure per call). */
interface Shared {
  store: Store;
  wireDeps: { chainById: ReadonlyMap<number, ChainConfig> };
  closing: AbortSignal;
  /** The held calls in the order they began; with one hold time that is also the order they time out. */
  held: Set<HeldCall>;
  expiry: HoldExpiry;
}

export function createWaitIntentReceipt(deps: WaitDeps): Handler<'WaitIntentReceipt'> {
  const held = new Set<HeldCall>();
  const shared: Shared = {
    store: deps.store,
    wireDeps: { chainById: new Map(deps.chains.map((c) => [c.chainId, c])) },
    closing: deps.closing,
    held,
    expiry: new HoldExpiry(held, deps.holdMs),
  };
  // One listener on the shared closing signal for all held calls: a listener per call made every
  // add/remove scan thousands of entries (and tripped Node's max-listeners warning at 11 calls).
  deps.closing.addEventListener('abort', () => {
    for (const call of held) call.end();
  });
  return (input, ctx) => new HeldCall(shared, input, ctx).run();
}

/**
 * The hold time-outs of all held calls on one timer: every call holds `holdMs`, so the oldest in `held`
 * (a Set keeps insertion order) always times out first. A Node timer per call was ~200 bytes and a
 * closure while held; this timer is re-armed for the next oldest call when it fires.
 */
class HoldExpiry {
  private timer: NodeJS.Timeout | undefined;
  private readonly held: Set<HeldCall>;
  private readonly holdMs: number;

  constructor(held: Set<HeldCall>, holdMs: number) {
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
class HeldCall {
  over = false;
  /** performance.now() (monotonic) when the call began. */
  readonly startedAt = performance.now();
  private readonly shared: Shared;
  private readonly input: WaitRequest;
  private readonly ctx: CallContext;
  private dirty = false;
  private reading = false;
  private unsubscribe: (() => void) | undefined;
  private resolve: ((response: WaitResponse) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;

  constructor(shared: Shared, input: WaitRequest, ctx: CallContext) {
    this.shared = shared;
    this.input = input;
    this.ctx = ctx;
  }

  run(): Promise<WaitResponse> {
    return new Promise<WaitResponse>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      // Subscribe before the first read so a change between the read and the hold is not missed.
      this.unsubscribe = this.shared.store.events.subscribe(this.input.intentId.toLowerCase(), () =>
        this.poke(),
      );
      this.shared.held.add(this);
      this.shared.expiry.arm();
      if (this.ctx.onClientLeave) this.ctx.onClientLeave(this);
      else this.ctx.signal?.addEventListener('abort', this);
      this.read();
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
    store.intents.getReceipt({ projectId: this.ctx.projectId!, intentId }).then(
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
      this.finish(undefined, new NotFoundError(`intent ${this.input.intentId} not found`));
      return;
    }
    // Whether to hold is decided on the stored rows alone; the answer is built only to answer. Nothing of
    // the record stays alive while held (it is read again on wake-up).
    const last = this.input.lastReceiptStates;
    const hold =
      !isTerminal(record.intent.status) &&
      last !== undefined &&
      last.length > 0 &&
      sameStates(storedReceiptStates(record, this.ctx.dialect), last) &&
      !this.over &&
      !this.shared.closing.aborted;
    if (!hold) {
      this.finish(answer(this.shared.wireDeps, record, this.ctx.dialect), undefined);
      return;
    }
    // A change or an end that came while reading: read again.
    if (this.dirty || this.over) this.read();
  }

  private finish(response: WaitResponse | undefined, error: unknown): void {
    this.over = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.shared.held.delete(this);
    if (this.shared.held.size === 0) this.shared.expiry.disarm();
    if (!this.ctx.onClientLeave) this.ctx.signal?.removeEventListener('abort', this);
    const { resolve, reject } = this;
    this.resolve = undefined;
    this.reject = undefined;
    if (response) resolve?.(response);
    else reject?.(error);
  }
}

function answer(
  wireDeps: Shared['wireDeps'],
  record: IntentReceiptRecord,
  dialect: CallContext['dialect'],
): WaitResponse {
  const receipt = receiptToWire(wireDeps, record);
  return {
    intentReceipt: receiptInDialect(receipt, dialect),
    receiptStates: receiptStates(receipt, dialect),
    done: isTerminal(record.intent.status),
  };
}
