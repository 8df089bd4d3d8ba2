/**
 * WaitIntentReceipt: answers at once when the intent is in a terminal status (`done: true`) or when its
 * receiptStates differ from `lastReceiptStates` (or that is missing or empty); otherwise holds the call until
 * the store publishes a change of this intent (`store.events`, LISTEN/NOTIFY on Postgres) that alters the
 * states, or until the hold time passes (then 200 with `done: false`). A waiter costs one subscription and
 * one timer, no polling; both are released when the call ends, the client disconnects or the services close.
 * bench/wait.ts measures 10,000 held calls (docs/benchmarks.md).
 */
import type { CallContext, Handler } from '../../api/context.ts';
import { NotFoundError } from '../../api/errors/rpc-errors.ts';
import { receiptToWire } from '../../api/methods/reads/to-wire.ts';
import type { MethodResponse } from '../../api/schemas/methods.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { type IntentReceiptRecord, isTerminal, type Store } from '../../store/index.ts';
import { receiptInDialect, receiptStates, sameStates } from './receipt-states.ts';

export interface WaitDeps {
  store: Store;
  chains: readonly ChainConfig[];
  holdMs: number;
  /** Aborted by IntentServices.close(): every held call answers at once. */
  closing: AbortSignal;
}

type WaitResponse = MethodResponse<'WaitIntentReceipt'>;

export function createWaitIntentReceipt(deps: WaitDeps): Handler<'WaitIntentReceipt'> {
  const wireDeps = { chainById: new Map(deps.chains.map((c) => [c.chainId, c])) };
  // One listener on the shared closing signal for all held calls: a listener per call made every
  // add/remove scan thousands of entries (and tripped Node's max-listeners warning at 11 calls).
  const held = new Set<HeldCall>();
  deps.closing.addEventListener('abort', () => {
    for (const call of held) call.end();
  });
  const answer = (record: IntentReceiptRecord, ctx: CallContext): WaitResponse => {
    const receipt = receiptToWire(wireDeps, record);
    return {
      intentReceipt: receiptInDialect(receipt, ctx.dialect),
      receiptStates: receiptStates(receipt, ctx.dialect),
      done: isTerminal(record.intent.status),
    };
  };

  return async ({ intentId: rawId, lastReceiptStates }, ctx) => {
    const intentId = rawId.toLowerCase();
    // Subscribe before the first read so a change between the read and the hold is not missed. The
    // listeners are inline arrows and the call object itself: no named per-call closures (see HeldCall).
    const call = new HeldCall();
    const unsubscribe = deps.store.events.subscribe(intentId, () => call.poke());
    const timer = setTimeout(() => call.end(), deps.holdMs);
    held.add(call);
    ctx.signal?.addEventListener('abort', call);
    const respondNow = async (): Promise<WaitResponse | undefined> => {
      const response = answer(await readReceipt(deps.store, ctx.projectId!, intentId, rawId), ctx);
      const hold =
        !response.done &&
        lastReceiptStates !== undefined &&
        lastReceiptStates.length > 0 &&
        sameStates(response.receiptStates, lastReceiptStates) &&
        !call.over &&
        !deps.closing.aborted &&
        ctx.signal?.aborted !== true;
      return hold ? undefined : response;
    };
    try {
      for (;;) {
        // The answer is built in respondNow and dropped there when the call holds: nothing of it stays
        // alive in this frame while held (it is read again on wake-up).
        const response = await respondNow();
        if (response) return response;
        await call.next();
      }
    } finally {
      clearTimeout(timer);
      unsubscribe();
      held.delete(call);
      ctx.signal?.removeEventListener('abort', call);
    }
  };
}

async function readReceipt(store: Store, projectId: number, intentId: string, rawId: string) {
  const record = await store.intents.getReceipt({ projectId, intentId });
  if (!record) throw new NotFoundError(`intent ${rawId} not found`);
  return record;
}

/**
 * One held call's wake-up: `poke` on a change, `end` on time-out, abort or close; `next` resolves on
 * either. A class (methods on the prototype) rather than a closure per method: under tsx every named
 * closure also gets a `name` property defined on it, and with 10,000 held calls those add up. It is its
 * own abort listener (`handleEvent`) for the same reason.
 */
class HeldCall {
  over = false;
  private dirty = false;
  private resolve: (() => void) | undefined;

  poke(): void {
    this.dirty = true;
    this.fire();
  }

  end(): void {
    this.over = true;
    this.fire();
  }

  handleEvent(): void {
    this.end();
  }

  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.dirty || this.over) {
        this.dirty = false;
        resolve();
        return;
      }
      this.resolve = () => {
        this.dirty = false;
        resolve();
      };
    });
  }

  private fire(): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }
}
