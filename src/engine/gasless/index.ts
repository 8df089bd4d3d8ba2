/** Gasless deposits on the engine side: the stored entry, the authData, the step hooks. */
export { depositAuthData } from './deposit-auth-data.ts';
export {
  type DepositIntentEntry,
  differingEntryField,
  readDepositIntentEntry,
  toDepositIntentEntry,
  type VerifiedDepositSignature,
} from './deposit-intent-entry.ts';
export { GaslessDepositMalformedError, GaslessEntryConflictError } from './errors.ts';
export { checkGaslessSendable, gaslessDepositStep } from './gasless-deposit-step.ts';
export { recordGaslessDeposit, recordGaslessNotRelayed } from './record-gasless-deposit.ts';
export { recordGaslessRequest } from './record-gasless-request.ts';
