/**
 * WaitIntentReceipt on the wire: the intent services hold the call (src/intents/services/wait-intent-receipt.ts);
 * this adapter reads `lastReceiptStates` in either dialect's spelling and answers with the receipt in the
 * caller's, its receiptStates, and `done` once the intent is final.
 */
import type { IntentServices } from '../../../intents/services/index.ts';
import type { ChainConfig } from '../../../internal/config-types.ts';
import { type IntentReceiptRecord, isTerminal } from '../../../store/index.ts';
import type { CallContext, Handler } from '../../context.ts';
import type { MethodResponse } from '../../schemas/methods.ts';
import { receiptToWire } from '../reads/to-wire.ts';
import { inStoreSpelling, receiptStates } from './receipt-states.ts';

type WaitResponse = MethodResponse<'WaitIntentReceipt'>;

export function createWaitIntentReceipt(
  intents: Pick<IntentServices, 'receiptWaiter'>,
  chainById: ReadonlyMap<number, ChainConfig>,
): Handler<'WaitIntentReceipt'> {
  const wireDeps = { chainById };
  // Built once and handed to the waiter: a held call keeps no closure of its own.
  const answer = (record: IntentReceiptRecord, ctx: CallContext): WaitResponse => {
    const intentReceipt = receiptToWire(wireDeps, record, ctx.dialect);
    return {
      intentReceipt,
      receiptStates: receiptStates(intentReceipt),
      done: isTerminal(record.intent.status),
    };
  };
  const wait = intents.receiptWaiter(answer);
  return (input, ctx) => {
    const last = inStoreSpelling(input.lastReceiptStates);
    return wait(
      last === input.lastReceiptStates ? input : { intentId: input.intentId, lastReceiptStates: last },
      ctx,
    );
  };
}
