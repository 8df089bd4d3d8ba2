/**
 * CommitIntent: the intent must be the quoted one (compare-intent.ts); an expired quote is QuoteExpiredError;
 * a QUOTED intent becomes COMMITTED and its execute window (EXECUTE_WINDOW_MS) opens. A cross-chain intent's
 * fill is checked again against the solver's inventory, fresh, and from then on holds its share of it: a
 * commit that no longer fits is InsufficientInventoryError with the inventory's numbers, and the intent
 * stays QUOTED.
 * Committing again is idempotent: the same intentId comes back, the window is not extended.
 */
import type { IntentRecord, InventoryCheck } from '../../store/types.ts';
import { IntentChangedError, IntentNotFoundError, QuoteExpiredError, WrongStatusError } from '../errors.ts';
import { decodePlan } from '../plan-codec.ts';
import { firstDifference } from './compare-intent.ts';
import { EXECUTE_WINDOW_MS } from './constants.ts';
import { refusalOfPlan } from './refusal-of-plan.ts';
import type { IntentServices, IntentServicesDeps } from './types.ts';

export function createCommitIntent(deps: IntentServicesDeps, now: () => Date): IntentServices['commit'] {
  const { store } = deps;
  return async (intent, projectId) => {
    const intentId = intent.intentId.toLowerCase();
    const record = await store.intents.get({ projectId, intentId });
    if (!record) throw new IntentNotFoundError(intent.intentId, 'quote it first');
    const changed = firstDifference(intent, record.intent);
    if (changed !== undefined) throw new IntentChangedError(`intent.${changed}`);
    if (record.status === 'COMMITTED') return { intentId: record.intentId };
    if (record.status !== 'QUOTED') {
      throw new WrongStatusError(
        `intent ${record.intentId} cannot be committed: it is ${record.status}`,
        record.status,
      );
    }
    const at = now();
    if (at.getTime() >= record.quoteExpiresAt.getTime())
      throw new QuoteExpiredError(record.quoteExpiresAt, at);
    // With the inventory's check where the store makes it in the move (Postgres: one statement).
    const commit = (inventory?: InventoryCheck) =>
      store.intents.updateStatus({
        intentId,
        to: 'COMMITTED',
        at,
        committedAt: at,
        executeDeadline: new Date(at.getTime() + EXECUTE_WINDOW_MS),
        ...(inventory && { inventory }),
      });
    const fill = fillOf(record);
    const moved =
      fill && deps.inventory
        ? await deps.inventory.reserve(fill, commit).catch((error: unknown) => {
            throw refusalOfPlan(error);
          })
        : await commit(undefined);
    // A racing commit of the same intent got there first: that is the idempotent case.
    if (!moved.updated && moved.status !== 'COMMITTED') {
      throw new WrongStatusError(
        `intent ${record.intentId} cannot be committed: it is ${moved.status}`,
        moved.status,
      );
    }
    return { intentId: record.intentId };
  };
}

/** What a cross-chain intent's solver fills on the destination chain, from its stored plan. */
function fillOf(record: IntentRecord) {
  const order = record.planJson ? decodePlan(record.planJson).order : undefined;
  if (!order) return undefined;
  return { chainId: Number(order.destChainId), token: order.outputToken, amount: order.outputAmount };
}
