/** The intent services' public surface. */

export { EXECUTE_WINDOW_MS, WAIT_HOLD_MS } from './constants.ts';
export { createIntentServices } from './create-intent-services.ts';
export type {
  AbortRequest,
  ExecuteRequest,
  IntentServices,
  IntentServicesConfig,
  IntentServicesDeps,
  ReceiptWaiter,
  SubmittedIntent,
  WaitCaller,
  WaitRequest,
} from './types.ts';
