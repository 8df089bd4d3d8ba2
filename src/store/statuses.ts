/**
 * Intent statuses only move forward: QUOTED → COMMITTED → EXECUTING → one terminal status. A move
 * may skip a stage (a committed intent can be refunded without executing) but never go back, and a
 * terminal status is final.
 */
import { INTENT_STATUSES, type IntentStatus } from './types.ts';

const RANK: Record<IntentStatus, number> = {
  QUOTED: 0,
  COMMITTED: 1,
  EXECUTING: 2,
  SUCCEEDED: 3,
  FAILED: 3,
  REFUNDED: 3,
  ABORTED: 3,
  INVALID: 3,
};

export const TERMINAL_RANK = 3;

export function isTerminal(status: IntentStatus): boolean {
  return RANK[status] === TERMINAL_RANK;
}

/** The statuses an intent may be in for a move to `to` to be allowed (used in the UPDATE's WHERE). */
export function predecessorsOf(to: IntentStatus): IntentStatus[] {
  return INTENT_STATUSES.filter((s) => RANK[s] < RANK[to]);
}
