/**
 * What the stored intents ask of the solver's inventory (types.ts SolverInventoryRepo). The sums are taken
 * here, in bigint: amounts are TEXT on SQLite, and an 18-decimal token's sum passes 2^63 at 10 tokens.
 * (CommitIntent's move on Postgres sums them in SQL, as `numeric`: held-fits-postgres.ts.)
 */
import { type Kysely, sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { lower } from './rows.ts';
import type { Database } from './schema.ts';
import type { SolverInventoryRepo, TokenAmount } from './types.ts';

/**
 * The intents whose fill may still be sent (before COMMITTED: not committed; after EXECUTING: ended), as the
 * partial index `intents_open_fills` (migration 0015) names them: literals, not parameters, so that SQLite
 * (which matches a partial index's predicate by its text) and a generic Postgres plan can use it.
 */
export const OPEN_FILL_TEXT = "i.status in ('COMMITTED', 'EXECUTING') and i.fill_token_address is not null";
const OPEN_FILL = sql.raw<boolean>(OPEN_FILL_TEXT);
/** Journaled fill transactions in these states have landed: the balance read on-chain already shows them. */
export const LANDED = ['mined', 'failed'];
/** Settle steps in these states have not repaid the solver yet. */
const UNSETTLED = ['pending', 'running'];

/**
 * The intents holding the solver's inventory (`i`), of one destination chain and token when given: open, and
 * no `fillPurpose` transaction of theirs landed. The `held` read selects their amounts; CommitIntent's move
 * on Postgres their sum (held-fits-postgres.ts).
 */
export function openFills(
  db: Kysely<Database>,
  { fillPurpose, chainId, tokenAddress }: { fillPurpose: string; chainId?: number; tokenAddress?: string },
  /** StoreCapabilities.fencesSubqueries: each open intent's landed fill is probed by its index. */
  fenced: boolean,
) {
  return db
    .selectFrom('intents as i')
    .where(OPEN_FILL)
    .$if(chainId !== undefined, (q) => q.where('i.destination_chain_id', '=', chainId!))
    .$if(tokenAddress !== undefined, (q) => q.where('i.fill_token_address', '=', lower(tokenAddress!)))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('signed_transactions as s')
            .select(sql.lit(1).as('one'))
            .whereRef('s.intent_id', '=', 'i.intent_id')
            .where('s.purpose', '=', fillPurpose)
            .where('s.status', 'in', LANDED)
            .$if(fenced, (q) => q.offset(0)),
        ),
      ),
    );
}

export function createSolverInventoryRepo(ctx: StoreContext): SolverInventoryRepo {
  const { db } = ctx;
  return {
    async held(input) {
      const rows = await openFills(db, input, ctx.capabilities.fencesSubqueries)
        .select([
          'i.destination_chain_id as chainId',
          'i.fill_token_address as token',
          'i.fill_amount as amount',
        ])
        .execute();
      return sum(rows);
    },

    async owed({ settleStep }) {
      const rows = await db
        .selectFrom('intents as i')
        .innerJoin('intent_steps as st', 'st.intent_id', 'i.intent_id')
        .select([
          'i.origin_chain_id as chainId',
          'i.repayment_token_address as token',
          'i.repayment_amount as amount',
        ])
        .where('st.step', '=', settleStep)
        .where('st.state', 'in', UNSETTLED)
        .where('i.repayment_token_address', 'is not', null)
        .execute();
      return sum(rows);
    },
  };
}

function sum(rows: { chainId: number; token: string | null; amount: string | null }[]): TokenAmount[] {
  const totals = new Map<string, TokenAmount>();
  for (const row of rows) {
    if (row.token === null || row.amount === null) continue;
    const key = `${row.chainId}:${row.token}`;
    const total = totals.get(key) ?? { chainId: Number(row.chainId), tokenAddress: row.token, amount: 0n };
    total.amount += BigInt(row.amount);
    totals.set(key, total);
  }
  return [...totals.values()];
}
