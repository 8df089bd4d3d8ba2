/**
 * 0007: what a cross-chain intent asks of the solver, beside the intent: the token and amount it fills on
 * the destination chain (`fill_*`) and the token and amount the OriginSettler repays it on the origin chain
 * (`repayment_*`), both from the quoted order. A quote is refused when the solver's balance minus what
 * open intents will fill is short (src/solver/), and `switchyard inventory` sums what pending settlements
 * owe it: one query over these columns instead of decoding every open intent's plan. Nullable: same-chain
 * intents have no order, and intents stored before this migration are not counted.
 */
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from '../capabilities.ts';

export function migration0007(c: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('intents').addColumn('fill_token_address', 'text').execute();
      await db.schema.alterTable('intents').addColumn('fill_amount', c.amount).execute();
      await db.schema.alterTable('intents').addColumn('repayment_token_address', 'text').execute();
      await db.schema.alterTable('intents').addColumn('repayment_amount', c.amount).execute();
    },
  };
}
