/**
 * CommitIntent's status move with its inventory check on Postgres (StatusUpdate.inventory), one statement: the
 * open fills' sum (`held`, the rows SolverInventoryRepo.held reads, summed as `numeric`: the amounts are
 * numeric(78,0), never a float), then the move, guarded by `max(balance - held, 0) >= amount`. It returns `held` as
 * text, so a refusal reports the inventory's numbers as the separate read did, and the status as stored
 * (read in the statement's snapshot: before the move, which is the stored status when it did not move). The
 * NOTIFY rides in it, sent only if the row moved. Before, the held read and the move were two statements.
 */
import type { Kysely } from 'kysely';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { compiled, literal, type PgSql, pg, raw, values } from './pg-sql.ts';
import { type StatusMove, statusMovePg } from './pg-write-parts.ts';
import { lower } from './rows.ts';
import type { Database } from './schema.ts';
import { LANDED, OPEN_FILL_TEXT } from './solver-inventory.ts';
import type { IntentStatus, InventoryCheck, StatusUpdateResult } from './types.ts';

export async function moveIfHeldFitsPostgres(
  db: Kysely<Database>,
  input: {
    /** The status move (its WHERE clause the status guard) and when it happens (ms). */
    update: StatusMove;
    at: number;
    check: InventoryCheck;
  },
  inWrite: WriteNotifications,
): Promise<StatusUpdateResult & { held: bigint }> {
  const { update, at, check } = input;
  const intentId = lower(update.intentId);
  // What is available (never below zero) covers the fill: the solver's `available`, compared as it is.
  const fits = pg`greatest(${check.balance.toString()}::numeric - (select "amount" from "held"), 0) >= ${check.amount.toString()}::numeric`;
  const move = statusMovePg(update, at, { also: fits, returning: 'status' });
  if (!move) throw new Error(`no status moves to ${update.to}`);
  const { rows } = await db.executeQuery<{
    status: IntentStatus | null;
    stored: IntentStatus | null;
    held: string;
  }>(
    compiled(pg`with "held" as (${heldSumPg(check)}),
"moved" as (${move})
select (select "status" from "moved") as "status",
  (select "status" from "intents" where "intent_id" = ${intentId}) as "stored",
  (select "amount" from "held")::text as "held",
  (select pg_notify(${literal(inWrite.changeChannel)}, ${inWrite.changePayload(intentId)})
    where exists (select 1 from "moved")) as "notified"`),
  );
  const row = rows[0]!;
  if (row.status) inWrite.deliver(intentId);
  return {
    updated: row.status !== null,
    status: row.status ?? row.stored ?? undefined,
    held: BigInt(row.held),
  };
}

/**
 * The open fills' sum as `held` reads their rows (solver-inventory.ts, `openFills` fenced, of one chain and
 * token), as text: the SQL its query-builder twin writes (pg-write-parts.test.ts).
 */
export function heldSumPg(check: Pick<InventoryCheck, 'fillPurpose' | 'chainId' | 'tokenAddress'>): PgSql {
  return pg`select coalesce(sum("i"."fill_amount"), 0) as "amount" from "intents" as "i" where ${raw(OPEN_FILL_TEXT)} and "i"."destination_chain_id" = ${check.chainId} and "i"."fill_token_address" = ${lower(check.tokenAddress)} and not exists (select 1 as "one" from "signed_transactions" as "s" where "s"."intent_id" = "i"."intent_id" and "s"."purpose" = ${check.fillPurpose} and "s"."status" in (${values(LANDED)}) offset ${0})`;
}
