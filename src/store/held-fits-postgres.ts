/**
 * CommitIntent's status move with its inventory check on Postgres (StatusUpdate.inventory), one statement: the
 * open fills' sum (`held`, the rows SolverInventoryRepo.held reads, summed as `numeric`: the amounts are
 * numeric(78,0), never a float), then the move, guarded by `max(balance - held, 0) >= amount`. It returns `held` as
 * text, so a refusal reports the inventory's numbers as the separate read did, and the status as stored
 * (read in the statement's snapshot: before the move, which is the stored status when it did not move). The
 * NOTIFY rides in it, sent only if the row moved. Before, the held read and the move were two statements.
 */
import { type Kysely, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { WriteNotifications } from './intent-events-postgres.ts';
import type { Database } from './schema.ts';
import { openFills } from './solver-inventory.ts';
import type { IntentStatus, InventoryCheck, StatusUpdateResult } from './types.ts';

export async function moveIfHeldFitsPostgres(
  db: Kysely<Database>,
  input: {
    /** The intent, lower-cased. */
    intentId: string;
    /** The status move's UPDATE (its WHERE clause the status guard). */
    move: UpdateQueryBuilder<Database, 'intents', 'intents', UpdateResult>;
    check: InventoryCheck;
  },
  inWrite: WriteNotifications,
): Promise<StatusUpdateResult & { held: bigint }> {
  const { intentId, move, check } = input;
  const held = openFills(db, check, true).select(
    sql<string>`coalesce(sum("i"."fill_amount"), 0)`.as('amount'),
  );
  // What is available (never below zero) covers the fill: the solver's `available`, compared as it is.
  const fits = sql<boolean>`greatest(${check.balance.toString()}::numeric - (select "amount" from "held"), 0) >= ${check.amount.toString()}::numeric`;
  const { rows } = await sql<{
    status: IntentStatus | null;
    stored: IntentStatus | null;
    held: string;
  }>`with "held" as (${held}),
"moved" as (${move.where(fits).returning('status')})
select (select "status" from "moved") as "status",
  (select "status" from "intents" where "intent_id" = ${intentId}) as "stored",
  (select "amount" from "held")::text as "held",
  (select pg_notify(${sql.lit(inWrite.changeChannel)}, ${inWrite.changePayload(intentId)})
    where exists (select 1 from "moved")) as "notified"`.execute(db);
  const row = rows[0]!;
  if (row.status) inWrite.deliver(intentId);
  return {
    updated: row.status !== null,
    status: row.status ?? row.stored ?? undefined,
    held: BigInt(row.held),
  };
}
