/**
 * The ordered list of migrations. Append a new numbered file and one line here; never edit or
 * reorder a shipped one (databases in the field have already run it). Numbers only grow: 0005, 0006, 0008
 * and 0011 were taken by changes that never landed and stay unused, since Kysely's migrator refuses a
 * migration that sorts before one a database has already run.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { DialectProfile } from '../capabilities.ts';
import { migration0001 } from './0001_initial.ts';
import { migration0002 } from './0002_execution_plan.ts';
import { migration0003 } from './0003_history_owner_indexes.ts';
import { migration0004 } from './0004_signed_transactions_mined_block.ts';
import { migration0007 } from './0007_intents_solver_amounts.ts';
import { migration0009 } from './0009_intent_events.ts';
import { migration0010 } from './0010_webhooks.ts';
import { migration0012 } from './0012_task_leases.ts';
import { migration0013 } from './0013_step_takeovers.ts';
import { migration0014 } from './0014_intents_recipient.ts';
import { migration0015 } from './0015_open_fill_indexes.ts';
import { migration0016 } from './0016_lz4_large_columns.ts';

export function migrationProvider(profile: DialectProfile): MigrationProvider {
  const { columns } = profile;
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001_initial': migration0001(columns),
        '0002_execution_plan': migration0002(),
        '0003_history_owner_indexes': migration0003(),
        '0004_signed_transactions_mined_block': migration0004(),
        '0007_intents_solver_amounts': migration0007(columns),
        '0009_intent_events': migration0009(profile),
        '0010_webhooks': migration0010(columns),
        '0012_task_leases': migration0012(columns),
        '0013_step_takeovers': migration0013(),
        '0014_intents_recipient': migration0014(),
        '0015_open_fill_indexes': migration0015(),
        '0016_lz4_large_columns': migration0016(profile),
      };
    },
  };
}
