/**
 * The intent services: quote, commit, execute, abort and wait for an intent's receipt. They own the
 * statuses QUOTED, COMMITTED and ABORTED; the engine owns everything from EXECUTING on. They take plain
 * inputs and throw the errors of src/intents/errors.ts; the API's adapters (src/api/methods/intents/) put
 * them on the wire. docs/intents.md describes the lifecycle and the rules.
 */
import { createSolverInventory } from '../../solver/create-solver-inventory.ts';
import { createAbortIntent } from './abort-intent.ts';
import { createBuildOrderRefund } from './build-order-refund.ts';
import { createCommitIntent } from './commit-intent.ts';
import { WAIT_HOLD_MS } from './constants.ts';
import { createExecuteIntent } from './execute-intent.ts';
import { createQuoteIntent } from './quote-intent.ts';
import type { IntentServices, IntentServicesDeps } from './types.ts';
import { createReceiptWaiter } from './wait-intent-receipt.ts';

export function createIntentServices(given: IntentServicesDeps): IntentServices {
  const deps: IntentServicesDeps = {
    ...given,
    inventory:
      given.inventory ??
      createSolverInventory({
        store: given.store,
        chains: given.chains,
        getClient: (chainId) => given.clients.get(chainId)!,
        solver: given.operator.solver,
      }),
  };
  const now = deps.config?.now ?? (() => new Date());
  const closing = new AbortController();
  const holdMs = deps.config?.waitHoldMs ?? WAIT_HOLD_MS;
  return {
    quote: createQuoteIntent(deps, now),
    commit: createCommitIntent(deps, now),
    execute: createExecuteIntent(deps, now),
    abort: createAbortIntent(deps),
    orderRefund: createBuildOrderRefund(deps),
    receiptWaiter: (answer) =>
      createReceiptWaiter({ store: deps.store, holdMs, closing: closing.signal, answer }),
    close: () => closing.abort(),
  };
}
