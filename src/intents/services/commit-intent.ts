/**
 * CommitIntent: the intent must be the quoted one (compare-intent.ts); an expired quote is QuoteExpired; a
 * QUOTED intent becomes COMMITTED and its execute window (EXECUTE_WINDOW_MS) opens. A cross-chain intent's
 * fill is checked again against the solver's inventory, fresh, and from then on holds its share of it: a
 * commit that no longer fits is Unavailable with the inventory's numbers, and the intent stays QUOTED.
 * Committing again is idempotent: the same intentId comes back, the window is not extended.
 */
import type { Handler } from '../../api/context.ts';
import {
  IntentStatusError,
  InvalidArgumentError,
  NotFoundError,
  QuoteExpiredError,
} from '../../api/errors/rpc-errors.ts';
import type { IntentRecord } from '../../store/types.ts';
import { decodePlan } from '../plan-codec.ts';
import { firstDifference } from './compare-intent.ts';
import { EXECUTE_WINDOW_MS } from './constants.ts';
import { planErrorToRpc } from './plan-error-to-rpc.ts';
import type { IntentServicesDeps } from './types.ts';

export function createCommitIntent(deps: IntentServicesDeps, now: () => Date): Handler<'CommitIntent'> {
  const { store } = deps;
  return async ({ intent }, ctx) => {
    const intentId = intent.intentId.toLowerCase();
    const record = await store.intents.get({ projectId: ctx.projectId!, intentId });
    if (!record) throw new NotFoundError(`intent ${intent.intentId} not found: quote it first`);
    const changed = firstDifference(intent, record.intent);
    if (changed !== undefined) {
      throw new InvalidArgumentError(
        `intent.${changed}`,
        'differs from the quoted intent; commit the intent exactly as QuoteIntent returned it',
      );
    }
    if (record.status === 'COMMITTED') return { intentId: record.intentId };
    if (record.status !== 'QUOTED') {
      throw new IntentStatusError(
        `intent ${record.intentId} cannot be committed: it is ${record.status}`,
        record.status,
      );
    }
    const at = now();
    if (at.getTime() >= record.quoteExpiresAt.getTime()) {
      throw new QuoteExpiredError(
        `the quote expired at ${record.quoteExpiresAt.toISOString()}; request a new quote`,
        { details: { expiresAt: record.quoteExpiresAt.toISOString(), now: at.toISOString() } },
      );
    }
    const commit = () =>
      store.intents.updateStatus({
        intentId,
        to: 'COMMITTED',
        at,
        committedAt: at,
        executeDeadline: new Date(at.getTime() + EXECUTE_WINDOW_MS),
      });
    const fill = fillOf(record);
    const moved =
      fill && deps.inventory
        ? await deps.inventory.reserve(fill, commit).catch((error: unknown) => {
            throw planErrorToRpc(error);
          })
        : await commit();
    // A racing commit of the same intent got there first: that is the idempotent case.
    if (!moved.updated && moved.status !== 'COMMITTED') {
      throw new IntentStatusError(
        `intent ${record.intentId} cannot be committed: it is ${moved.status}`,
        String(moved.status),
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
