/** The execution plan stored with the intent at quote time (plan_json, see src/intents/plan-codec.ts). */

import { LRUCache } from 'lru-cache';
import type { ExecutionPlan } from '../intents/plan/types.ts';
import { decodePlan } from '../intents/plan-codec.ts';
import type { IntentRecord } from '../store/types.ts';
import { PlanMissingError } from './errors.ts';

/**
 * Decoded plans a step runner keeps (most recently used): an intent runs about nine steps close together,
 * and with STEP_BATCH_SIZE steps in flight a few hundred intents interleave. A decoded plan is ~10–20 kB.
 */
export const PLAN_MEMO_SIZE = 512;

export function loadPlan(intent: IntentRecord): ExecutionPlan {
  if (!intent.planJson) {
    throw new PlanMissingError(`intent ${intent.intentId} has no execution plan stored`, {
      details: { intentId: intent.intentId, status: intent.status },
    });
  }
  return decodePlan(intent.planJson);
}

export interface PlanLoader {
  /** The intent's plan, decoded once per process while it stays among the PLAN_MEMO_SIZE last used. */
  load(intent: IntentRecord): ExecutionPlan;
}

/**
 * loadPlan with a memo by intent id. plan_json is written once, with the quote, and never updated; the memo
 * still compares the stored text, so a plan that did differ would be decoded again. Memoized plans are
 * frozen: steps share them, so one step must not be able to change what the next one reads.
 */
export function createPlanLoader(size: number = PLAN_MEMO_SIZE): PlanLoader {
  const plans = new LRUCache<string, { json: string; plan: ExecutionPlan }>({ max: size });
  return {
    load(intent) {
      const hit = plans.get(intent.intentId);
      if (hit && hit.json === intent.planJson) return hit.plan;
      const plan = deepFreeze(loadPlan(intent));
      plans.set(intent.intentId, { json: intent.planJson!, plan });
      return plan;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}
