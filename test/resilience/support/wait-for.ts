/** Polls until a state of the run is reached, the way every resilience test waits. */
import { POLL_MS, WAIT_LIMIT_MS } from './suite.ts';

/** Polls `read` until it returns a value; fails with `what` after `limitMs`. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  limitMs = WAIT_LIMIT_MS,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
