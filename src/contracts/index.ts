/**
 * Switchyard's contract bindings: struct types, the intent hash and address computed off-chain, calldata
 * encoders, gasless-deposit authData, fill attestations, and deployment helpers.
 */
export * from './abis.generated.ts';
export { type ContractArtifact, loadArtifact } from './artifacts.ts';
export * from './attestation.ts';
export * from './auth-data.ts';
export * from './calldata.ts';
export * from './create2.ts';
export * from './deploy.ts';
export * from './deploy-dev-tokens.ts';
export * from './deployment-plan.ts';
export * from './find-code-problems.ts';
export * from './hash-intent.ts';
export * from './order-id.ts';
export * from './predict-intent-address.ts';
export * from './recovery-typed-data.ts';
export * from './runtime-code.ts';
export * from './types.ts';
export * from './validate-intent.ts';
