/**
 * The two wire dialects differ only in names. `/rpc/Trails` speaks the official client's names (our
 * canonical, internal spelling); `/rpc/Service` speaks the seed spec's neutral names. Input in either
 * spelling is accepted on both prefixes; output follows the prefix.
 */
import { InvalidArgumentError } from './errors/rpc-errors.ts';

export type Dialect = 'Trails' | 'Service';

/**
 * Transaction statuses are stored with the spec's names; the official client (0.9.4) has no RELAYED and
 * spells it SENT. This is the one place that value differs between the dialects.
 */
export function transactionStatusIn<S extends string>(dialect: Dialect, status: S): S | 'SENT' {
  return dialect === 'Trails' && status === 'RELAYED' ? 'SENT' : status;
}

/** [client name, seed name] — client-brief §0. */
const NAME_PAIRS: readonly (readonly [string, string])[] = [
  ['trailsFee', 'serviceFee'],
  ['trailsFeeUsd', 'serviceFeeUsd'],
  ['trailsFeeTotal', 'serviceFeeTotal'],
  ['quoteProviderWithTrailsFee', 'quoteProviderWithServiceFee'],
  ['providerWithTrailsFeeUsd', 'providerWithServiceFeeUsd'],
  ['trailsVersion', 'serviceVersion'],
  ['trailsContracts', 'serviceContracts'],
  ['TrailsContracts', 'ServiceContracts'],
  ['trailsIntentEntrypointAddress', 'serviceIntentEntrypointAddress'],
  ['trailsRouterAddress', 'serviceRouterAddress'],
  ['trailsRouterShimAddress', 'serviceRouterShimAddress'],
  ['trailsUtilsAddress', 'serviceUtilsAddress'],
  ['trailsAddressOverrides', 'serviceAddressOverrides'],
  ['trailsFeesPriceImpact', 'serviceFeesPriceImpact'],
  ['sequenceWalletFactoryAddress', 'serviceWalletFactoryAddress'],
  ['sequenceWalletMainModuleAddress', 'serviceWalletMainModuleAddress'],
  ['sequenceWalletMainModuleUpgradableAddress', 'serviceWalletMainModuleUpgradableAddress'],
  ['sequenceWalletGuestModuleAddress', 'serviceWalletGuestModuleAddress'],
  ['sequenceWalletUtilsAddress', 'serviceWalletUtilsAddress'],
];

/** seed name → client name, for input. */
export const TO_CANONICAL: ReadonlyMap<string, string> = new Map(NAME_PAIRS.map(([c, s]) => [s, c]));
/** client name → seed name, for output on /rpc/Service. */
export const TO_SERVICE: ReadonlyMap<string, string> = new Map(NAME_PAIRS.map(([c, s]) => [c, s]));

/** Deeper request bodies are refused: no legitimate request nests more than ~8 levels. */
export const MAX_NESTING_DEPTH = 32;

/**
 * Copies a parsed request body with seed spellings renamed to client spellings. Also refuses bodies
 * nested deeper than MAX_NESTING_DEPTH and drops `__proto__` members (prototype pollution).
 */
export function renameKeysIn(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_NESTING_DEPTH) {
    throw new InvalidArgumentError('', `request body is nested deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  if (Array.isArray(value)) return value.map((item) => renameKeysIn(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') continue;
    out[TO_CANONICAL.get(key) ?? key] = renameKeysIn((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/** Renames client spellings to seed spellings in a response object (bigints and Dates kept). */
export function renameKeysOut(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(renameKeysOut);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    out[TO_SERVICE.get(key) ?? key] = renameKeysOut((value as Record<string, unknown>)[key]);
  }
  return out;
}
