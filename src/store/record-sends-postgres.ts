/**
 * One send of a key on a chain, or several signed with consecutive nonces, taken and recorded in one
 * statement (allocate-and-record-postgres.ts: a lone send, or the sends that queued behind the key's statement
 * in flight). The nonces `first … first + k - 1` are taken only together and only if `first` is still the next
 * one (the stored next nonce, or the floor when higher), so the statement records every transaction or none.
 * Each send's receipt row (its `withRecord`: the engine's RELAYING row with the new hash) is inserted from its
 * record only, so a refused nonce leaves no row naming a hash never recorded; it moves with its NOTIFY, and
 * this process's subscribers are told when the statement returns.
 */
import type { Kysely } from 'kysely';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { compiled, EMPTY, ident, join, literal, type PgSql, pg, raw } from './pg-sql.ts';
import { rowAdvancePg } from './pg-write-parts.ts';
import { lower } from './rows.ts';
import type { Database, SignedTransactionRow } from './schema.ts';
import type { RowAdvance, SignTransactionInput } from './types.ts';

/** One send of the statement: its input and its transaction, signed with its nonce. */
export interface SignedSend {
  input: SignTransactionInput<RowAdvance>;
  nonce: number;
  signed: { raw: string; hash: string };
}

/** The sends' records in nonce order, or (nothing taken) the stored next nonce. */
export type RecordedSends = { recorded: SignedTransactionRow[] } | { storedNext: number | undefined };

export async function recordSends(
  db: Kysely<Database>,
  notifications: WriteNotifications | undefined,
  sends: readonly SignedSend[],
  taking: { chainId: number; address: string; first: number; floor: number; now: number },
): Promise<RecordedSends> {
  const { chainId, address, first, floor, now } = taking;
  const records = sends.map(
    ({ input, nonce, signed }, i) =>
      pg`${ident(`recorded_${i}`)} as (
  insert into "signed_transactions" ("chain_id", "from_address", "nonce", "raw", "hash", "purpose", "intent_id", "status", "created_at", "broadcast_at", "mined_at")
  select ${chainId}, ${address}, ${nonce}, ${signed.raw}, ${lower(signed.hash)}, ${input.purpose}, ${lower(input.intentId) ?? null}, 'signed', ${now}, null, null
  from "taken"
  returning *
)`,
  );
  const moves = movedRows(sends, now, notifications);
  const recorded = join(
    sends.map((_, i) => pg`select * from ${ident(`recorded_${i}`)}`),
    raw(' union all '),
  );
  const { rows } = await db.executeQuery<
    SignedTransactionRow & { stored_next: number | null; moved_intents?: string | null }
  >(
    compiled(pg`with "taken" as (
  update "nonces" set "next_nonce" = ${first + sends.length}, "updated_at" = ${now}
  where "chain_id" = ${chainId} and "address" = ${address} and greatest("next_nonce", ${floor}::bigint) = ${first}
  returning 1
), ${join(records)}${moves.entries}
select "recorded".*, (select "next_nonce" from "nonces" where "chain_id" = ${chainId} and "address" = ${address}) as "stored_next"${moves.columns}
from (select 1) as "one" left join (${recorded}) as "recorded" on true`),
  );
  const taken = rows.filter((row) => row.id !== null);
  if (taken.length === 0) return { storedNext: rows[0]?.stored_next ?? undefined };
  for (const intentId of rows[0]?.moved_intents?.split(',') ?? []) notifications?.deliver(intentId);
  return { recorded: taken.sort((a, b) => Number(a.nonce) - Number(b.nonce)) };
}

/**
 * The sends' receipt rows as entries `moved_row_<i>` (each written only with its record), gathered in
 * `moved_rows`; the select's `moved_intents` (the moved rows' intents, comma-separated) and `notified` (one
 * NOTIFY per moved row).
 */
function movedRows(
  sends: readonly SignedSend[],
  now: number,
  notifications: WriteNotifications | undefined,
): { entries: PgSql; columns: PgSql } {
  const withRows = sends.flatMap(({ input, signed }, i) => {
    const row = input.withRecord?.(signed.hash);
    return row ? [{ row, i }] : [];
  });
  if (withRows.length === 0) return { entries: EMPTY, columns: EMPTY };
  if (!notifications) throw new Error('a receipt row with the record needs in-write notifications');
  const entries = withRows.map(
    ({ row, i }) =>
      pg`${ident(`moved_row_${i}`)} as (${rowAdvancePg(row, now, { onlyWith: `recorded_${i}` })})`,
  );
  const gathered = join(
    withRows.map(({ i }) => pg`select "intent_id" from ${ident(`moved_row_${i}`)}`),
    raw(' union all '),
  );
  const { changeChannel, senderPrefix } = notifications;
  return {
    entries: pg`, ${join(entries)}, "moved_rows" as (${gathered})`,
    columns: pg`, (select string_agg("intent_id", ',') from "moved_rows") as "moved_intents", (select count(*) from (select pg_notify(${literal(changeChannel)}, ${literal(senderPrefix)} || "intent_id") from "moved_rows") as "sent")::int as "notified"`,
  };
}
