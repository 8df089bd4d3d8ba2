/** The execution plan stored with the intent at quote time (plan_json, see src/intents/plan-codec.ts). */

import type { ExecutionPlan } from '../intents/plan/types.ts';
import { decodePlan } from '../intents/plan-codec.ts';
import type { IntentRecord } from '../store/types.ts';
import { PlanMissingError } from './errors.ts';

export function loadPlan(intent: IntentRecord): ExecutionPlan {
  if (!intent.planJson) {
    throw new PlanMissingError(`intent ${intent.intentId} has no execution plan stored`, {
      details: { intentId: intent.intentId, status: intent.status },
    });
  }
  return decodePlan(intent.planJson);
}
