/**
 * Counts for the operator's gauges (src/metrics/state-gauges.ts), read when Prometheus scrapes: every
 * project's intents by status, and the engine's journal of steps due and leased. Both are one grouped read
 * on an index (`intents_status`, `intent_steps_due`).
 */
import { sql } from 'kysely';
import type { StoreContext } from './context.ts';
import type { GaugesRepo, IntentStatus } from './types.ts';

export function createGaugesRepo(ctx: StoreContext): GaugesRepo {
  const { db } = ctx;
  return {
    async intentsByStatus() {
      const rows = await db
        .selectFrom('intents')
        .select(['status', (eb) => eb.fn.countAll().as('count')])
        .groupBy('status')
        .execute();
      const counts: Partial<Record<IntentStatus, number>> = {};
      for (const row of rows) counts[row.status as IntentStatus] = Number(row.count);
      return counts;
    },

    async steps(at) {
      const now = (at ?? ctx.now()).getTime();
      // "Due" is exactly what a worker's lease would take now (steps.ts `lease`): pending, or running under an
      // expired lease, and due by next_attempt_at.
      const due = sql<number>`case when next_attempt_at <= ${now} and (lease_until is null or lease_until < ${now}) then 1 else 0 end`;
      const leased = sql<number>`case when state = 'running' and lease_until >= ${now} then 1 else 0 end`;
      const row = await db
        .selectFrom('intent_steps')
        .select((eb) => [
          eb.fn.coalesce(eb.fn.sum(due), sql.lit(0)).as('due'),
          eb.fn.coalesce(eb.fn.sum(leased), sql.lit(0)).as('leased'),
        ])
        .where('state', 'in', ['pending', 'running'])
        .executeTakeFirstOrThrow();
      return { due: Number(row.due), leased: Number(row.leased) };
    },
  };
}
