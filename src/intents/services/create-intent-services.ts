/**
 * The intent services behind QuoteIntent, CommitIntent, ExecuteIntent, AbortIntent and WaitIntentReceipt.
 * They own the statuses QUOTED, COMMITTED and ABORTED; the engine owns everything from EXECUTING on.
 * docs/intents.md describes the lifecycle and the rules.
 */
import { createSolverInventory } from '../../solver/create-solver-inventory.ts';
import { createAbortIntent } from './abort-intent.ts';
import { createCommitIntent } from './commit-intent.ts';
import { WAIT_HOLD_MS } from './constants.ts';
import { createExecuteIntent } from './execute-intent.ts';
import { createQuoteIntent } from './quote-intent.ts';
import type { IntentServices, IntentServicesDeps } from './types.ts';
import { createWaitIntentReceipt } from './wait-intent-receipt.ts';

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
  return {
    QuoteIntent: createQuoteIntent(deps, now),
    CommitIntent: createCommitIntent(deps, now),
    ExecuteIntent: createExecuteIntent(deps, now),
    AbortIntent: createAbortIntent(deps),
    WaitIntentReceipt: createWaitIntentReceipt({
      store: deps.store,
      chains: deps.chains,
      holdMs: deps.config?.waitHoldMs ?? WAIT_HOLD_MS,
      closing: closing.signal,
    }),
    close: () => closing.abort(),
  };
}
