/**
 * Reads of QUOTED intents for the engine's watch of deposits that arrive without a commit
 * (src/engine/quoted-deposit-watch.ts). Both are index range scans: by origin address
 * (intents_origin_address), and by creation time (intents_created) for the recent quotes of one token.
 */
import type { StoreContext } from './context.ts';
import { intentFromRow, lower } from './rows.ts';
import type { IntentRecord, IntentsRepo } from './types.ts';

/** Addresses per query: keeps the statement's parameter list far below either database's limit. */
const ADDRESSES_PER_QUERY = 500;

export function quotedAtAddresses(
  ctx: StoreContext,
  input: Parameters<IntentsRepo['quotedAtAddresses']>[0],
): Promise<IntentRecord[]> {
  const addresses = [...new Set(input.addresses.map((a) => lower(a)))];
  const chunks: string[][] = [];
  for (let i = 0; i < addresses.length; i += ADDRESSES_PER_QUERY) {
    chunks.push(addresses.slice(i, i + ADDRESSES_PER_QUERY));
  }
  return Promise.all(
    chunks.map((chunk) =>
      ctx.db
        .selectFrom('intents')
        .selectAll()
        .where('origin_intent_address', 'in', chunk)
        .where('origin_chain_id', '=', input.originChainId)
        .where('status', '=', 'QUOTED')
        .orderBy('id')
        .execute(),
    ),
  ).then((pages) => pages.flat().map(intentFromRow));
}

export async function listRecentQuoted(
  ctx: StoreContext,
  input: Parameters<IntentsRepo['listRecentQuoted']>[0],
): Promise<IntentRecord[]> {
  const { after } = input;
  const rows = await ctx.db
    .selectFrom('intents')
    .selectAll()
    .where('created_at', '>', input.createdAfter.getTime())
    .where('status', '=', 'QUOTED')
    .where('origin_token_address', '=', lower(input.originTokenAddress))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('created_at', '>', after!.createdAt.getTime()),
          eb.and([eb('created_at', '=', after!.createdAt.getTime()), eb('id', '>', after!.id)]),
        ]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit)
    .execute();
  return rows.map(intentFromRow);
}
