/**
 * 0013: which worker a step was taken over from. A lease taken while another worker's lease on the step had
 * run out (that worker died or stalled) records the old owner here, in the same UPDATE that takes it (the
 * SET reads the row as it was, which RETURNING cannot show), so the taking worker counts and logs the
 * takeover (`switchyard_step_lease_takeovers_total`). Null for a step leased from `pending`.
 */
import type { Kysely, Migration } from 'kysely';

export function migration0013(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('intent_steps').addColumn('taken_over_from', 'text').execute();
    },
  };
}
