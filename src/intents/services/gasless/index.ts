/** Gasless deposits on the service side: what ExecuteIntent checks before the engine relays. */

export {
  TRAILS_INTENT_TYPES,
  type TrailsIntentFields,
  trailsIntentTypedData,
} from './trails-intent-typed-data.ts';
export { type DepositSignatureInput, verifyDepositSignature } from './verify-deposit-signature.ts';
