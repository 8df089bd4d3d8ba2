/**
 * Leases on work that is not an intent's step (types.ts, TaskLeasesRepo). Taking and renewing are one upsert
 * whose conflict branch only fires for the holder or an expired lease: on Postgres concurrent upserts of one
 * task wait on its row and the later one re-checks the condition against what the first wrote, so exactly
 * one worker gets it; on SQLite the single writer serialises them.
 */
import type { StoreContext } from './context.ts';
import type { TaskLeasesRepo } from './types.ts';

export function createTaskLeasesRepo(ctx: StoreContext): TaskLeasesRepo {
  const { db } = ctx;
  return {
    async acquire({ task, owner, leaseMs, now: at }) {
      const now = (at ?? ctx.now()).getTime();
      const until = now + leaseMs;
      const row = await db
        .insertInto('task_leases')
        .values({ task, owner, lease_until: until })
        .onConflict((oc) =>
          oc
            .column('task')
            .doUpdateSet({ owner, lease_until: until })
            .where((eb) =>
              eb.or([eb('task_leases.owner', '=', owner), eb('task_leases.lease_until', '<', now)]),
            ),
        )
        .returning('owner')
        .executeTakeFirst();
      return row !== undefined;
    },

    async release({ task, owner }) {
      const result = await db
        .deleteFrom('task_leases')
        .where('task', '=', task)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async leaseOwners() {
      const rows = await db.selectFrom('task_leases').select('owner').distinct().execute();
      return rows.map((r) => r.owner);
    },

    async endLeases({ owners, now: at }) {
      if (owners.length === 0) return 0;
      const now = (at ?? ctx.now()).getTime();
      // Below now, as a lease that ran out: acquire takes a lease whose lease_until is below its now.
      const result = await db
        .updateTable('task_leases')
        .set({ lease_until: now - 1 })
        .where('owner', 'in', owners)
        .where('lease_until', '>=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async get(task) {
      const row = await db.selectFrom('task_leases').selectAll().where('task', '=', task).executeTakeFirst();
      return row && { task: row.task, owner: row.owner, leaseUntil: new Date(Number(row.lease_until)) };
    },
  };
}
