/**
 * When a failed delivery is tried again: exponential backoff (1 s, 2 s, 4 s … capped at an hour) with
 * "equal jitter" (half the delay fixed, half random), so endpoints that failed together do not retry in
 * step. Retries go on until RETRY_WINDOW_MS after the first failure of the run; then the endpoint is marked
 * failing. About 40 attempts over the day (the jitter averages three quarters of each delay).
 */

/** The first retry's delay (ms): a receiver restarting or a brief network error is over by then. */
export const RETRY_BASE_MS = 1_000;
/** The longest wait between two attempts (ms): an endpoint back after an outage is found within the hour. */
export const RETRY_MAX_DELAY_MS = 60 * 60 * 1000;
/** How long an endpoint is retried before it is marked failing (ms). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: RETRY_BASE_MS,
  maxDelayMs: RETRY_MAX_DELAY_MS,
  windowMs: RETRY_WINDOW_MS,
};

/** The wait before attempt `failures + 1`, after `failures` failed ones (1 or more); `random` in [0, 1). */
export function retryDelayMs(policy: RetryPolicy, failures: number, random: number): number {
  const exponent = Math.min(failures - 1, 40);
  const full = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** exponent);
  return Math.round(full / 2 + (full / 2) * random);
}

/**
 * When to try again, or null when the run of failures began a whole window ago. The last attempt is at the
 * window's end at the latest, so the endpoint is marked failing 24 h after its first failure, not up to an
 * hour later.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  failures: number,
  failingSince: Date,
  now: Date,
  random: number,
): Date | null {
  const end = failingSince.getTime() + policy.windowMs;
  if (now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + retryDelayMs(policy, failures, random)));
}
