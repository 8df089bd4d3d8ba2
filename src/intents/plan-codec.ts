/**
 * ExecutionPlan ⇄ JSON text for the `plan_json` column. Bigints are written as decimal strings; the
 * decoder turns them back using BIGINT_FIELDS, a map of where the plan holds bigints (field names alone
 * are ambiguous: `chainId` is a bigint in an Intent and a number in ChainGas). Encoding refuses a plan
 * with a bigint the map does not know, so a new plan field cannot be silently decoded as a string.
 */
import { SwitchyardError } from '../internal/errors.ts';
import type { ExecutionPlan } from './plan/types.ts';

/** The plan's JSON does not match the ExecutionPlan shape this codec knows. */
export class PlanCodecError extends SwitchyardError {
  override readonly name = 'PlanCodecError';
}

const B = 'bigint' as const;
type Spec = typeof B | { readonly [key: string]: Spec } | readonly [Spec];

const INTENT: Spec = {
  chainId: B,
  deadline: B,
  depositAmount: B,
  minGas: B,
  calls: [{ value: B }],
};
const PLANNED: Spec = { intent: INTENT };
const CHAIN_GAS: Spec = { gasLimit: B, gasPrice: B, feeNative: B, feeAmount: B };

/** Where an ExecutionPlan holds bigints (mirrors src/intents/plan/types.ts). */
const BIGINT_FIELDS: Spec = {
  origin: PLANNED,
  destination: PLANNED,
  order: { inputAmount: B, destChainId: B, outputAmount: B, fillDeadline: B },
  amounts: { depositAmount: B, fromAmount: B, fromAmountMin: B, toAmount: B, toAmountMin: B },
  fees: {
    originGas: CHAIN_GAS,
    destinationGas: CHAIN_GAS,
    gasFee: B,
    providerFee: B,
    serviceFee: B,
    collectorFee: B,
    totalFeeAmount: B,
  },
  gasFeeOptions: {
    gasEstimate: { totalGas: B, gasPrice: B, nativeCost: B },
    feeOptions: [{ amount: B }],
    expiresAt: B,
  },
  deadlines: {
    quoteExpiresAt: B,
    originDeadline: B,
    fillDeadline: B,
    destinationDeadline: B,
    settlementRefundAt: B,
  },
};

export function encodePlan(plan: ExecutionPlan): string {
  checkBigints(plan, BIGINT_FIELDS, 'plan');
  return JSON.stringify(plan, (key, value) =>
    // executeCalldata is derived from the intent and only serves the quote's wire intent.
    key === 'executeCalldata' ? undefined : typeof value === 'bigint' ? value.toString() : value,
  );
}

export function decodePlan(json: string): ExecutionPlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new PlanCodecError(`the stored plan is not JSON: ${(error as Error).message}`);
  }
  return revive(parsed, BIGINT_FIELDS, 'plan') as ExecutionPlan;
}

/** Throws when a bigint sits where the spec does not expect one (it would come back as a string). */
function checkBigints(value: unknown, spec: Spec | undefined, path: string): void {
  if (typeof value === 'bigint') {
    if (spec !== B) throw new PlanCodecError(`${path} is a bigint the plan codec does not know about`);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const inner = spec === B ? undefined : spec;
  if (Array.isArray(value)) {
    const element = Array.isArray(inner) ? (inner as readonly [Spec])[0] : undefined;
    for (const [i, item] of value.entries()) checkBigints(item, element, `${path}[${i}]`);
    return;
  }
  const fields = inner && !Array.isArray(inner) ? (inner as Record<string, Spec>) : {};
  for (const [key, child] of Object.entries(value)) checkBigints(child, fields[key], `${path}.${key}`);
}

function revive(value: unknown, spec: Spec | undefined, path: string): unknown {
  if (spec === undefined || value === null || value === undefined) return value;
  if (spec === B) {
    if (typeof value !== 'string' || !/^-?[0-9]+$/.test(value)) {
      throw new PlanCodecError(`${path} must be an integer string, got ${JSON.stringify(value)}`);
    }
    return BigInt(value);
  }
  if (Array.isArray(spec)) {
    if (!Array.isArray(value)) throw new PlanCodecError(`${path} must be an array`);
    return value.map((item, i) => revive(item, spec[0], `${path}[${i}]`));
  }
  if (typeof value !== 'object') throw new PlanCodecError(`${path} must be an object`);
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, child] of Object.entries(spec as Record<string, Spec>)) {
    if (key in out) out[key] = revive(out[key], child, `${path}.${key}`);
  }
  return out;
}
