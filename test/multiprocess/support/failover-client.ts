/**
 * The official client in front of several API processes, the way a wallet sees them behind a load balancer:
 * a call goes to the process it prefers; a call that cannot reach it (refused, reset, cut off mid-answer) is
 * sent again to the next one, as a load balancer does with a retried request. WaitIntentReceipt is polled as
 * the official SDK does (the previous answer's receiptStates echoed, again after an error) and every call is
 * recorded: which process held it, and whether it was answered or cut off.
 */
import { TrailsApi, type TransactionStatus } from '@0xtrails/api';
import { isUnreachable } from '../../resilience/support/intents.ts';

/** Between a call cut off and its retry (ms): the official SDK polls again after 150 ms. */
const RETRY_AFTER_MS = 150;
/** Give up on reaching any process after this long (ms): a restart takes seconds. */
const UNREACHABLE_LIMIT_MS = 90_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WaitCall {
  /** The API process (index) that held the call. */
  api: number;
  startedAt: number;
  endedAt: number;
  outcome: 'answered' | 'cut off';
  done?: boolean;
}

export interface ReceiptWait {
  intentId: string;
  calls: WaitCall[];
}

export interface FailoverClient {
  /** Runs `call` against the preferred process, then the others in turn while none can be reached. */
  call<T>(prefer: number, call: (api: TrailsApi) => Promise<T>): Promise<T>;
  /** Polls WaitIntentReceipt until `done`, starting on `prefer`; resolves with every call it made. */
  waitForReceipt(intentId: string, prefer: number): Promise<ReceiptWait>;
  /** WaitIntentReceipt calls in flight on each process now. */
  heldOn(api: number): number;
}

export function createFailoverClient(key: string, urls: readonly string[]): FailoverClient {
  const apis = urls.map((hostname) => new TrailsApi(key, { hostname }));
  const held = urls.map(() => 0);

  async function call<T>(prefer: number, run: (api: TrailsApi) => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await run(apis[(prefer + attempt) % apis.length]!);
      } catch (error) {
        if (!isUnreachable(error) || Date.now() - started > UNREACHABLE_LIMIT_MS) throw error;
        await sleep(RETRY_AFTER_MS);
      }
    }
  }

  async function waitForReceipt(intentId: string, prefer: number): Promise<ReceiptWait> {
    const wait: ReceiptWait = { intentId, calls: [] };
    let at = prefer;
    let lastReceiptStates: TransactionStatus[] = [];
    const started = Date.now();
    for (;;) {
      const callStarted = Date.now();
      const on = at;
      held[on]!++;
      try {
        const answer = await apis[on]!.waitIntentReceipt({ intentId, lastReceiptStates });
        wait.calls.push({
          api: on,
          startedAt: callStarted,
          endedAt: Date.now(),
          outcome: 'answered',
          done: answer.done,
        });
        if (answer.done) return wait;
        lastReceiptStates = answer.receiptStates;
      } catch (error) {
        if (!isUnreachable(error) || Date.now() - started > UNREACHABLE_LIMIT_MS) throw error;
        wait.calls.push({ api: on, startedAt: callStarted, endedAt: Date.now(), outcome: 'cut off' });
        at = (on + 1) % apis.length;
      } finally {
        held[on]!--;
      }
      if (at !== on) await sleep(RETRY_AFTER_MS);
    }
  }

  return { call, waitForReceipt, heldOn: (api) => held[api]! };
}
