/** The intent services' public surface. */

export { EXECUTE_WINDOW_MS, WAIT_HOLD_MS } from './constants.ts';
export { createIntentServices } from './create-intent-services.ts';
export type { IntentServices, IntentServicesConfig, IntentServicesDeps } from './types.ts';
