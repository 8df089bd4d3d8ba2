import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, RETRY_WINDOW_MS, retryDelayMs } from './retry-delay.ts';

describe('webhook retry delays', () => {
  it('double from a second up to an hour, each between half and all of its full delay', () => {
    const full = [
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 1_024_000, 2_048_000,
      3_600_000, 3_600_000,
    ];
    full.forEach((delay, i) => {
      expect(retryDelayMs(DEFAULT_RETRY_POLICY, i + 1, 0)).toBe(delay / 2);
      expect(retryDelayMs(DEFAULT_RETRY_POLICY, i + 1, 0.999999)).toBeCloseTo(delay, -1);
    });
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1_000, 0.5)).toBe(2_700_000);
  });

  it('stop 24 hours after the first failure of the run: about 40 attempts in all', () => {
    const since = new Date(Date.UTC(2026, 0, 1));
    let at = since;
    let failures = 0;
    for (;;) {
      failures++;
      const next = nextAttemptAt(DEFAULT_RETRY_POLICY, failures, since, at, 0.5);
      if (!next) break;
      at = next;
    }
    // The last attempt is at the window's end exactly; the failure there marks the endpoint failing.
    expect(at.getTime() - since.getTime()).toBe(RETRY_WINDOW_MS);
    // Half of each delay plus, on average, half of the other half.
    expect(failures).toBeGreaterThanOrEqual(35);
    expect(failures).toBeLessThanOrEqual(48);
  });
});
