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
  vaultExit: { shares: B },
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
  swapRoutes: [
    {
      amountIn: B,
      amountOut: B,
      gasEstimate: B,
      parts: [{ amountIn: B, amountOut: B, limit: B }],
      alternatives: [{ amountIn: B, amountOut: B, gasEstimate: B }],
    },
  ],
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
  // One walk checks the bigints and copies them as strings; JSON.stringify then runs without a replacer
  // (V8's fast path). The path of a refused bigint is built only when there is one.
  return JSON.stringify(toJsonSafe(plan, BIGINT_FIELDS, []));
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

/**
 * The value with its bigints as decimal strings; throws when a bigint sits where the spec does not expect
 * one (it would come back as a string). `executeCalldata` is left out: it is derived from the intent and
 * only serves the quote's wire intent. Undefined members stay undefined, which JSON.stringify drops.
 */
function toJsonSafe(value: unknown, spec: Spec | undefined, path: (string | number)[]): unknown {
  if (typeof value === 'bigint') {
    if (spec !== B) {
      throw new PlanCodecError(`${pathText(path)} is a bigint the plan codec does not know about`);
    }
    return value.toString();
  }
  if (typeof value !== 'object' || value === null) return value;
  const inner = spec === B ? undefined : spec;
  if (Array.isArray(value)) {
    const element = Array.isArray(inner) ? (inner as readonly [Spec])[0] : undefined;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      out[i] = toJsonSafe(value[i], element, path);
      path.pop();
    }
    return out;
  }
  // Anything with its own JSON form (none in a plan today) is left to JSON.stringify, as before.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const fields = inner && !Array.isArray(inner) ? (inner as Record<string, Spec>) : undefined;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (key === 'executeCalldata' || !Object.hasOwn(value, key)) continue;
    path.push(key);
    out[key] = toJsonSafe((value as Record<string, unknown>)[key], fields?.[key], path);
    path.pop();
  }
  return out;
}

function pathText(path: (string | number)[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${key}`),
    'plan',
  );
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
