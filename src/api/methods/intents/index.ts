/**
 * The intent methods on the wire: each passes the decoded request to the intent services in the caller's
 * project and answers what they return (the schemas encode amounts and rename members for the seed's
 * dialect). Refusals are the services' own errors, mapped in src/api/errors/to-wire-error.ts.
 */
import type { IntentServices } from '../../../intents/services/index.ts';
import type { ChainConfig } from '../../../internal/config-types.ts';
import type { ApiServices } from '../../context.ts';
import { createWaitIntentReceipt } from './wait-intent-receipt.ts';

export type IntentHandlers = Required<
  Pick<ApiServices, 'QuoteIntent' | 'CommitIntent' | 'ExecuteIntent' | 'AbortIntent' | 'WaitIntentReceipt'>
>;

export function createIntentHandlers(
  intents: IntentServices,
  chainById: ReadonlyMap<number, ChainConfig>,
): IntentHandlers {
  return {
    // Methods that need a key always have a project by the time they run (access.ts).
    QuoteIntent: (input, ctx) => intents.quote(input, ctx.projectId!),
    CommitIntent: ({ intent }, ctx) => intents.commit(intent, ctx.projectId!),
    ExecuteIntent: (input, ctx) => intents.execute(input, ctx.projectId!),
    AbortIntent: (input, ctx) => intents.abort(input, ctx.projectId!),
    WaitIntentReceipt: createWaitIntentReceipt(intents, chainById),
  };
}
