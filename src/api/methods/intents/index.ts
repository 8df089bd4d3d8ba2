/**
 * The intent methods on the wire: each passes the decoded request to the intent services in the caller's
 * project and answers what they return (the schemas encode amounts and rename members for the seed's
 * dialect). Refusals are the services' own errors, mapped in src/api/errors/to-wire-error.ts.
 */
import type { Quote } from '../../../intents/intent-document.ts';
import type { IntentServices } from '../../../intents/services/index.ts';
import type { ChainConfig } from '../../../internal/config-types.ts';
import type { ApiServices } from '../../context.ts';
import { createWaitIntentReceipt } from './wait-intent-receipt.ts';

export type IntentHandlers = Required<
  Pick<
    ApiServices,
    | 'QuoteIntent'
    | 'CommitIntent'
    | 'ExecuteIntent'
    | 'AbortIntent'
    | 'WaitIntentReceipt'
    | 'BuildOIFRefundTransaction'
  >
>;

export function createIntentHandlers(
  intents: IntentServices,
  chainById: ReadonlyMap<number, ChainConfig>,
): IntentHandlers {
  return {
    // Methods that need a key always have a project by the time they run (access.ts).
    QuoteIntent: async (input, ctx) => withPlannedStates(await intents.quote(input, ctx.projectId!)),
    CommitIntent: ({ intent }, ctx) => intents.commit(intent, ctx.projectId!),
    ExecuteIntent: (input, ctx) => intents.execute(input, ctx.projectId!),
    AbortIntent: (input, ctx) => intents.abort(input, ctx.projectId!),
    BuildOIFRefundTransaction: async ({ intentId }, ctx) => {
      const { refundableAt, ...refund } = await intents.orderRefund(intentId, ctx.projectId!);
      // The reference's name for when the order's refund opens.
      return { ...refund, orderExpiresAt: refundableAt.toISOString() };
    },
    WaitIntentReceipt: createWaitIntentReceipt(intents, chainById),
  };
}

/**
 * The reference's planned transactions beside the quote: the owner's deposit and the origin execution on the
 * origin chain, the destination execution (after the solver's fill, across chains) where the value arrives.
 * Every route runs through an intent account, so a direct transfer (passthrough) is never offered.
 */
function withPlannedStates(quote: Quote) {
  const { originChainId, destinationChainId } = quote.intent;
  return {
    ...quote,
    transactionStates: [
      { id: 'deposit', label: 'Deposit', chainId: originChainId },
      { id: 'origin', label: 'Origin execution', chainId: originChainId },
      { id: 'destination', label: 'Destination execution', chainId: destinationChainId },
    ],
    passthrough: { eligible: false },
  };
}
