/**
 * 0012: leases on work that is not an intent's step (src/store/task-leases.ts): the deposit watcher's rounds,
 * a chain's restore of lost transactions, the solver's approve of a token. One row per task, held by one
 * worker until `lease_until` (ms) unless it renews; a worker that dies stops renewing and another takes the
 * task once the lease has run out.
 */
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from '../capabilities.ts';

export function migration0012(c: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('task_leases')
        .addColumn('task', 'text', (col) => col.primaryKey())
        .addColumn('owner', 'text', (col) => col.notNull())
        .addColumn('lease_until', c.millis, (col) => col.notNull())
        .execute();
    },
  };
}
