/** The recovery services' public surface. */
export { createRecoveryServices, type RecoveryServices } from './create-recovery-services.ts';
export * from './errors.ts';
export type * from './types.ts';
