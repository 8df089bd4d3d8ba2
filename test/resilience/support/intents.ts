/**
 * Drives intents through the service's API the way a wallet does (QuoteIntent → CommitIntent → the
 * deposit transaction → ExecuteIntent), surviving a service that is down or killed mid-request: a call
 * that could not reach the server (or lost its answer) is repeated until it can, which the API allows
 * (commit and execute are idempotent). Deposits from the one user account are sent one at a time per
 * chain so their nonces never race.
 */
import type { Intent, QuoteIntentRequest } from '@0xtrails/api';
import type { Address, Hex } from 'viem';
import { isTerminal } from '../../../src/store/statuses.ts';
import type { IntentRecord } from '../../../src/store/types.ts';
import type { ResilienceService } from './resilience-service.ts';

/** Between attempts at reaching a service that is down (ms): restarts take 1–3 s. */
const API_RETRY_DELAY_MS = 200;
/** After a RateLimited answer (ms): the limiter's window is one second. */
const RATE_LIMIT_PAUSE_MS = 1_000;
/** Give up on reaching the service after this long (ms): a restart never takes this long. */
const API_DOWN_LIMIT_MS = 90_000;
/** How often the store is read while waiting for an intent to finish (ms). */
const STATUS_POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True for the client's "could not talk to the server" (refused, reset, killed mid-answer). */
export function isUnreachable(error: unknown): boolean {
  const e = error as { name?: string; cause?: unknown; message?: string };
  return e?.name === 'WebrpcRequestFailedError' || /fetch\(\)|fetch failed/.test(`${e?.cause ?? e?.message}`);
}

/** The per-key rate limit (10 requests/s) answered: a wallet waits and asks again. */
function isRateLimited(error: unknown): boolean {
  return /rate limit/i.test(`${(error as { message?: string })?.message}`);
}

export async function whileDown<T>(call: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const retry = isUnreachable(error) || isRateLimited(error);
      if (!retry || Date.now() - started > API_DOWN_LIMIT_MS) throw error;
      await sleep(isRateLimited(error) ? RATE_LIMIT_PAUSE_MS : API_RETRY_DELAY_MS);
    }
  }
}

interface RawDeposit {
  to: Address;
  data: Hex;
  value?: string | number | bigint;
}

export interface SubmittedIntent {
  intentId: string;
  intent: Intent;
  depositHash: Hex;
}

/** One queue per chain for the user's deposits (same account, consecutive nonces). */
export function createDepositQueue() {
  const tails = new Map<number, Promise<unknown>>();
  return <T>(chainId: number, job: () => Promise<T>): Promise<T> => {
    const next = (tails.get(chainId) ?? Promise.resolve()).then(job, job);
    tails.set(
      chainId,
      next.catch(() => undefined),
    );
    return next;
  };
}

export async function submitIntent(
  svc: ResilienceService,
  request: QuoteIntentRequest,
  queue: ReturnType<typeof createDepositQueue>,
  options: { execute?: boolean } = {},
): Promise<SubmittedIntent> {
  const { intent } = await whileDown(() => svc.api().quoteIntent(request));
  const intentId = intent.intentId;
  await whileDown(() => svc.api().commitIntent({ intent }));
  const origin = svc.chain(request.originChainId);
  const raw = intent.depositTransaction as unknown as RawDeposit;
  const depositHash = await queue(origin.entry.chainId, async () => {
    const hash = await origin
      .walletFor('user')
      .sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
    await origin.publicClient.waitForTransactionReceipt({ hash });
    return hash;
  });
  if (options.execute ?? true) await executeIntent(svc, intentId, depositHash);
  return { intentId, intent, depositHash };
}

/** ExecuteIntent until the service has recorded it (its answer may be lost to a kill). */
export async function executeIntent(svc: ResilienceService, intentId: string, hash: Hex): Promise<void> {
  await whileDown(async () => {
    try {
      await svc.api().executeIntent({ intentId, depositTransactionHash: hash });
    } catch (error) {
      if (isUnreachable(error) || isRateLimited(error)) throw error;
      // Already finished (the watcher or a previous call got there first): that is what we asked for.
      const row = await svc.store.intents.getForEngine(intentId);
      if (!row || !isTerminal(row.status)) throw error;
    }
  });
}

export async function waitForTerminal(
  svc: Pick<ResilienceService, 'store'>,
  intentId: string,
  timeoutMs: number,
): Promise<IntentRecord> {
  const started = Date.now();
  for (;;) {
    const row = await svc.store.intents.getForEngine(intentId);
    if (row && isTerminal(row.status)) return row;
    if (Date.now() - started > timeoutMs) {
      const steps = await svc.store.steps.list(intentId);
      throw new Error(
        `intent ${intentId} still ${row?.status} after ${timeoutMs} ms; steps: ${JSON.stringify(
          steps.map((s) => [s.step, s.state, s.attempts, s.lastError]),
        )}`,
      );
    }
    await sleep(STATUS_POLL_MS);
  }
}

/** Waits until the intent's journal has `step` done (settlement runs after the user's SUCCEEDED). */
export async function waitForStepDone(
  svc: Pick<ResilienceService, 'store'>,
  intentId: string,
  step: string,
  timeoutMs: number,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const steps = await svc.store.steps.list(intentId);
    if (steps.some((s) => s.step === step && s.state === 'done')) return;
    if (Date.now() - started > timeoutMs) {
      throw new Error(
        `step ${step} of ${intentId} not done after ${timeoutMs} ms: ${JSON.stringify(
          steps.map((s) => [s.step, s.state, s.attempts, s.lastError]),
        )}`,
      );
    }
    await sleep(STATUS_POLL_MS);
  }
}
