/**
 * SearchIntents: every given filter narrows the result (AND), always within the caller's project.
 * Hash and address filters are equality on indexed lowercase columns. Transaction hashes are matched on the
 * receipt rows only, which hold what the engine has checked.
 */
import type { ExpressionBuilder } from 'kysely';
import type { StoreContext } from './context.ts';
import { intentFromRow, lower } from './rows.ts';
import type { Database } from './schema.ts';
import type { IntentRecord, SearchIntentsFilter } from './types.ts';

/** Search is for finding a few intents, not for listing: history pages are the way to list. */
export const MAX_SEARCH_RESULTS = 100;

type IntentsEb = ExpressionBuilder<Database, 'intents'>;

/** Intents having a receipt transaction with this hash (optionally of one kind). */
function hasTransaction(eb: IntentsEb, hash: string, kind?: 'deposit') {
  let sub = eb
    .selectFrom('intent_transactions')
    .select('intent_transactions.intent_id')
    .where('txn_hash', '=', hash);
  if (kind) sub = sub.where('kind', '=', kind);
  return eb('intents.intent_id', 'in', sub);
}

function matchesQueryString(eb: IntentsEb, raw: string) {
  const q = raw.trim().toLowerCase();
  return eb.or([
    eb('intents.intent_id', '=', q),
    eb('intents.owner_address', '=', q),
    eb('intents.origin_intent_address', '=', q),
    eb('intents.destination_intent_address', '=', q),
    hasTransaction(eb, q),
  ]);
}

export async function searchIntents(ctx: StoreContext, filter: SearchIntentsFilter): Promise<IntentRecord[]> {
  let query = ctx.db.selectFrom('intents').selectAll().where('intents.project_id', '=', filter.projectId);
  if (filter.byIntentId) query = query.where('intents.intent_id', '=', lower(filter.byIntentId));
  if (filter.byOwnerAddress) query = query.where('intents.owner_address', '=', lower(filter.byOwnerAddress));
  if (filter.byOriginIntentAddress)
    query = query.where('intents.origin_intent_address', '=', lower(filter.byOriginIntentAddress));
  if (filter.byDestinationIntentAddress)
    query = query.where('intents.destination_intent_address', '=', lower(filter.byDestinationIntentAddress));
  const txHash = filter.byTransactionHash;
  if (txHash) query = query.where((eb) => hasTransaction(eb, lower(txHash)));
  const depositHash = filter.byDepositTransactionHash;
  // Only the deposit row's hash: the engine writes it there once the transaction is known to pay the intent
  // address. The hash ExecuteIntent named is only a claim until then (kept on the intent), and a claim
  // naming someone else's transaction must not find this intent.
  if (depositHash) query = query.where((eb) => hasTransaction(eb, lower(depositHash), 'deposit'));
  const q = filter.byQueryString?.trim();
  if (q) query = query.where((eb) => matchesQueryString(eb, q));
  const rows = await query.orderBy('intents.id', 'desc').limit(MAX_SEARCH_RESULTS).execute();
  return rows.map(intentFromRow);
}
