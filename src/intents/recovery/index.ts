/** The recovery services' public surface. */
export type { AddressBalance } from './address-balances.ts';
export { createRecoveryServices, type RecoveryServices } from './create-recovery-services.ts';
export * from './errors.ts';
export { createIntentBalances, type IntentBalances, type ReadIntentBalances } from './intent-balances.ts';
export type * from './types.ts';
